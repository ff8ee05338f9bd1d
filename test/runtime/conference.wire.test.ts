import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import type { CallSession } from '@ringflow/runtime';
import { describe, expect, it } from 'vitest';
import { appOverWire } from './appOverWire.ts';

const APP = 'conference';
const ROOM = 'ringflow-sales-weekly';
const DIALPLAN = `
[from-callers]
exten => _X.,1,Stasis(${APP})
 same => n,Hangup()
`;

/**
 * flows/conference.yaml run as `ringflow run` runs it (the runtime over HTTP and WebSocket on
 * 127.0.0.1) against the simulator behind its wire server (as `ringflow simulator`), with three
 * callers placed and driven through the simulator's driver; time is virtual, and before each step
 * of it everything in flight has landed.
 */
async function setUp() {
  const flow = await loadFlowFile(new URL('../../flows/conference.yaml', import.meta.url).pathname);
  return appOverWire(
    { apps: [APP], call: createFlowCallMachine(flow) },
    { dialplan: { text: DIALPLAN, file: 'conference.conf' } },
    new VirtualClock(Date.UTC(2026, 0, 5, 10)),
  );
}

describe('flows/conference.yaml over the wire with three callers', () => {
  it('a member waits, the moderator opens the room, a second member joins, all leave: nothing is left', async () => {
    const { simulator, app, ended, run, list, close } = await setUp();
    const sessions = new Map<string, CallSession>();
    app.calls$.subscribe((s) => sessions.set(s.channelId, s));
    const sessionOf = (channel: string) => sessions.get(channel);
    try {
      await app.start();
      const member = simulator.driver.placeCall({ from: '5552000', to: '100' });
      await run(3500);
      simulator.driver.pressDigits(member, '5678');
      await run(8000);
      expect(sessionOf(member)?.machine?.getSnapshot().value).toMatchObject({ 'waiting-for-moderator': {} });
      const moderator = simulator.driver.placeCall({ from: '5551000', to: '100' });
      await run(3500);
      simulator.driver.pressDigits(moderator, '1234');
      await run(6000);
      expect(sessionOf(moderator)?.machine?.getSnapshot().value).toMatchObject({ moderating: {} });
      expect(sessionOf(member)?.machine?.getSnapshot().value).toMatchObject({ 'in-room': {} });

      const second = simulator.driver.placeCall({ from: '5553000', to: '100' });
      await run(3500);
      simulator.driver.pressDigits(second, '5678');
      await run(6000);
      expect(sessionOf(second)?.machine?.getSnapshot().value).toMatchObject({ 'in-room': {} });
      const [room] = await list<{ id: string; channels: string[] }>('/bridges');
      expect(room?.id).toBe(ROOM);
      expect([...(room?.channels ?? [])].sort()).toEqual([member, moderator, second].sort());
      expect(simulator.liveRecordings).toEqual([`conference/sales-weekly-${moderator}`]);

      // The moderator leaves with *: the recording stops, the members stay in the room.
      simulator.driver.pressDigits(moderator, '*');
      await run(5000);
      expect(simulator.liveRecordings).toEqual([]);
      expect((await list<{ channels: string[] }>('/bridges'))[0]?.channels.sort()).toEqual(
        [member, second].sort(),
      );
      simulator.driver.hangup(member);
      simulator.driver.hangup(second);
      await run(3000);

      expect(ended.map((e) => [e.callId, e.result]).sort()).toEqual(
        [
          [member, 'hungUp'],
          [moderator, 'completed'],
          [second, 'hungUp'],
        ].sort(),
      );
      // The only failures are the ones the flow expects and routes itself (a member stopping music
      // the moderator already stopped: 409); nothing went to an error handler.
      expect(ended.filter((e) => e.failure?.unhandled).map((e) => e.failure)).toEqual([]);
      // Nothing is left on the server: the last one out closed the room.
      expect(await list('/bridges')).toEqual([]);
      expect(await list('/channels')).toEqual([]);
      expect(simulator.liveRecordings).toEqual([]);
    } finally {
      await close();
    }
  });
});
