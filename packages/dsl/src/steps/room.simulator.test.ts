import { type CallScenario, testCalls } from '@ringflow/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';

/**
 * Everyone joins one room; whoever is in it hears others come in (the last one is remembered)
 * and can, from the keypad, mute (1), unmute (2) or kick (3) the last one who came in. A call
 * taken out of the room says goodbye.
 */
const room = defineFlow({
  name: 'room',
  start: 'join',
  vars: { lastJoined: '' },
  states: {
    join: { steps: ['answer', { conference: { name: 'huddle', as: 'room' } }], next: 'in' },
    in: {
      on: {
        roomEntered: {
          if: 'event.channel.id != call.channelId',
          set: { lastJoined: { expr: 'event.channel.id' } },
        },
        roomLeft: { goto: 'out', if: 'event.channel.id == call.channelId' },
        dtmf: [
          { goto: 'mute-last', if: "event.digit == '1'" },
          { goto: 'unmute-last', if: "event.digit == '2'" },
          { goto: 'kick-last', if: "event.digit == '3'" },
        ],
      },
    },
    'mute-last': { steps: [{ mute: { channel: { expr: 'vars.lastJoined' }, direction: 'in' } }], next: 'in' },
    'unmute-last': {
      steps: [{ unmute: { channel: { expr: 'vars.lastJoined' }, direction: 'in' } }],
      next: 'in',
    },
    'kick-last': { steps: [{ kick: { channel: { expr: 'vars.lastJoined' } } }], next: 'in' },
    out: { steps: ['hangup'] },
  },
});

let scenario: CallScenario | undefined;
afterEach(async () => {
  await scenario?.close();
  scenario = undefined;
});

describe('a room run from the keypad', () => {
  it('mute, unmute and kick the last one who came in; the kicked call hears roomLeft about itself', async () => {
    scenario = await testCalls(room, { calls: { host: {}, guest: { at: '1s' } } });
    const host = scenario.call('host');
    const guest = scenario.call('guest');
    await scenario.wait('2s');
    await scenario.expectBridge({ id: 'ringflow-huddle', calls: ['host', 'guest'] });
    await host.press('1');
    const [mute] = host.expectAction({
      operation: 'channels.mute',
      params: { channelId: 'c2', direction: 'in' },
    });
    expect(mute?.status).toBe(204);
    await host.press('2');
    host.expectAction({ operation: 'channels.unmute', params: { channelId: 'c2', direction: 'in' } });
    await host.press('3');
    host.expectAction({
      operation: 'bridges.removeChannel',
      params: { bridgeId: 'ringflow-huddle', channel: 'c2' },
    });
    await guest.expectEnd({ status: 'completed', by: 'flow', within: '5s' });
    guest.expectVisited('out');
    await scenario.expectBridge({ id: 'ringflow-huddle', calls: ['host'] });
    expect(host.failures()).toEqual([]);
  });
});
