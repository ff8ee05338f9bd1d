import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import { type Application, type CallEnded, createApplication, MemoryCallStore } from '@ringflow/runtime';
import {
  createSimulator,
  type PublishedEvent,
  type SimulatedServer,
  startWireServer,
} from '@ringflow/simulator';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { virtualTimeOverWire } from './virtualTimeOverWire.ts';

const APP = 'ringflow-demo';

/**
 * flows/ivr.yaml over real sockets (HTTP and WebSocket on 127.0.0.1, the simulator behind its wire
 * server), its application replaced mid-call: the first lets the call go (`detach()`) while the
 * caller is in the main menu, a second one started with the same store takes it over, and the
 * caller's key then leads to the voicemail as if nothing had happened.
 */
describe('flows/ivr.yaml over the wire: a call taken over by a new application', () => {
  it('the new application restores the call from the store and finishes it; no prompt is played twice', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock });
    let eventsSent = 0;
    const counted: SimulatedServer = {
      handle: (request) => simulator.handle(request),
      connectEvents: (request, deliver) =>
        simulator.connectEvents(request, (event) => {
          eventsSent++;
          deliver(event);
        }),
    };
    const wire = await startWireServer(counted, {
      users: [{ username: 'ringflow', password: 'secret' }],
      clock,
    });
    const flow = await loadFlowFile(new URL('../../flows/ivr.yaml', import.meta.url).pathname);
    const machine = createFlowCallMachine(flow);
    const store = new MemoryCallStore();
    const ended: CallEnded[] = [];
    let n = 0;
    const open = (prefix: string): Application => {
      const app = createApplication({
        servers: [
          {
            url: wire.url,
            username: 'ringflow',
            password: 'secret',
            eventStream: { pingIntervalMs: 0 },
            restTimeoutMs: 60_000,
          },
        ],
        apps: [APP],
        call: machine,
        store,
        clock,
        ids: () => `${prefix}${++n}`,
        logger: pino({ level: 'silent' }),
      });
      app.callEnded$.subscribe((report) => ended.push(report));
      return app;
    };
    const world: PublishedEvent[] = [];
    simulator.driver.onEvent((event) => world.push(event));
    // Both made up front: making an application does not connect it (a server gives an
    // application's events to the connection that registered it last).
    const first = open('a');
    const second = open('b');
    try {
      await first.start();
      const caller = simulator.driver.placeCall({ from: '5551234', to: '100', endpoint: 'PJSIP/caller' });
      await virtualTimeOverWire(clock, first, () => eventsSent).run(16_000, 100);
      expect(JSON.stringify(first.call(caller)?.machine?.getSnapshot().value)).toMatch(/main-menu/);
      await first.detach();
      expect(store.size).toBe(1);

      eventsSent = 0;
      await second.start();
      expect(second.activeCalls().map((s) => s.channelId)).toEqual([caller]);
      const { run } = virtualTimeOverWire(clock, second, () => eventsSent);
      // The menu's timeout (19 s from the call's start) re-prompts; at 30 s the caller picks voicemail.
      await run(14_000, 100);
      simulator.driver.pressDigits(caller, '3');
      await run(30_000, 100);

      expect(ended.map((e) => e.outcome)).toEqual(['detached', 'completed']);
      expect(ended[1]?.output).toMatchObject({
        status: 'completed',
        vars: { voicemailName: `voicemail/${caller}` },
      });
      const played = world
        .filter((e) => e.type === 'PlaybackStarted')
        .map((e) => String((e as { playback?: { media_uri?: unknown } }).playback?.media_uri));
      expect(played.filter((m) => m.includes('hello-world'))).toHaveLength(1);
      // The menu prompt twice: first, then after the timeout (which the new application kept).
      expect(played.filter((m) => m.includes('demo-instruct'))).toHaveLength(2);
      expect(store.size).toBe(0);
      expect(second.counters().activeSessions).toBe(0);
    } finally {
      await first.stop();
      await second.stop();
      await wire.close();
      simulator.close();
    }
  });
});
