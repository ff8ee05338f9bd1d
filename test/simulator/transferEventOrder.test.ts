import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

/**
 * The order of the events an application gets when a phone transfers, as the simulator's README
 * states it (section "Transfers made by phones") from the real server's source: main/bridge.c
 * (ast_bridge_transfer_blind, attended_transfer_bridge), res/stasis/stasis_bridge.c (a channel
 * that is not in the application, pushed into its bridge, enters it first: StasisStart with
 * replace_channel, then the swap) and res/res_stasis.c (replace_channel in StasisStart).
 */

/** The application's events from `from` on, one line each: type, the channel it is about, the variable. */
function eventsAfter(h: Harness, from: number, names: Record<string, string>): string[] {
  return (h.events.app ?? []).slice(from).map((e) => {
    const channel = (e.channel as { id?: string } | undefined)?.id;
    const variable = typeof e.variable === 'string' ? ` ${e.variable}` : '';
    return `${e.type}${channel ? ` ${names[channel] ?? channel}` : ''}${variable}`;
  });
}

/** The transferer's leg leaving once its phone hangs up. */
const hangsUp = (leg: string) => [
  `ChannelHangupRequest ${leg}`,
  `StasisEnd ${leg}`,
  `ChannelVarset ${leg} STASISSTATUS`,
  `ChannelDestroyed ${leg}`,
];

describe('the event order of transfers made by phones', () => {
  it('blind: off hold, BLINDTRANSFER set, the transfer, the Local ;1 half enters and swaps in, the transferer leaves', async () => {
    const h = createHarness();
    h.connect('app', ['conf'], false);
    const agent = h.sim.driver.placeCall({ app: 'conf', from: '201', channelId: 'agent' });
    const customer = h.sim.driver.placeCall({ app: 'conf', from: '202', channelId: 'customer' });
    await h.req('POST', '/bridges/br', { type: 'mixing' });
    await h.req('POST', '/bridges/br/addChannel', { channel: `${agent},${customer}` });
    const from = h.events.app!.length;
    const local = h.sim.driver.blindTransfer(agent, '101', 'default');
    await h.advance(0);
    expect(eventsAfter(h, from, { [local]: 'local;1' })).toEqual([
      'ChannelUnhold agent',
      'ChannelVarset agent BLINDTRANSFER',
      'ChannelVarset customer BLINDTRANSFER',
      'BridgeBlindTransfer agent',
      'StasisStart local;1',
      'ChannelLeftBridge agent',
      'ChannelEnteredBridge local;1',
      ...hangsUp('agent'),
    ]);
    const vars = (h.events.app ?? []).filter((e) => e.variable === 'BLINDTRANSFER').map((e) => e.value);
    expect(vars).toEqual(['PJSIP/202-00000001', 'PJSIP/201-00000000']);
  });

  it("attended between two application bridges: both legs off hold, each link half enters in a leg's place (second first), the transfer, both legs leave", async () => {
    const h = createHarness();
    h.connect('app', ['conf'], false);
    const [caller, agent1, agent2, expert] = ['caller', 'agent1', 'agent2', 'expert'].map((channelId, i) =>
      h.sim.driver.placeCall({ app: 'conf', from: String(301 + i), channelId }),
    ) as [string, string, string, string];
    await h.req('POST', '/bridges/first');
    await h.req('POST', '/bridges/second');
    await h.req('POST', '/bridges/first/addChannel', { channel: `${caller},${agent1}` });
    await h.req('POST', '/bridges/second/addChannel', { channel: `${agent2},${expert}` });
    const from = h.events.app!.length;
    const { firstLink, secondLink } = h.sim.driver.attendedTransfer(agent1, agent2);
    await h.advance(0);
    expect(eventsAfter(h, from, { [String(firstLink)]: 'link;1', [String(secondLink)]: 'link;2' })).toEqual([
      'ChannelUnhold agent1',
      'ChannelUnhold agent2',
      'StasisStart link;2',
      'ChannelLeftBridge agent2',
      'ChannelEnteredBridge link;2',
      'StasisStart link;1',
      'ChannelLeftBridge agent1',
      'ChannelEnteredBridge link;1',
      'BridgeAttendedTransfer',
      ...hangsUp('agent2'),
      ...hangsUp('agent1'),
    ]);
  });
});
