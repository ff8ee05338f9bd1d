import { systemClock } from '@ringflow/client';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import { type CallEnded, createApplication, type GapReport } from '@ringflow/runtime';
import { createSimulator, type SimulatedServer, startWireServer } from '@ringflow/simulator';
import { until } from '@ringflow/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { EventSocketProxy } from './EventSocketProxy.ts';

/**
 * No call left behind (issue 27): the event socket is cut for 3 s exactly while the callers'
 * greetings end, so every `PlaybackFinished` is lost. Once the stream is back, each call asks the
 * server about its prompt, is told `PlaybackFinished` (recovered), and goes on to the main menu.
 * The watchdog is off here, so only the gap's recovery can save the calls (without it they stay
 * silent in the greeting for good: this test then times out waiting for the menus).
 */

const APP = 'ivr';
const CALLERS = 6;
const flow = await loadFlowFile(new URL('../../flows/ivr.yaml', import.meta.url).pathname);
// Always open, whatever the real time the test runs at.
const machine = createFlowCallMachine(flow, { inputs: { openingHours: 'Mon-Sun 00:00-24:00' } });

describe('over the wire: the event socket is cut while prompts end', () => {
  it('every call is told its prompt finished, goes on to the menu and ends normally', async () => {
    // A 2.5 s greeting: every caller's has started well before the first one ends, even under load.
    const simulator = createSimulator({
      clock: systemClock,
      sounds: { extraSounds: [{ id: 'hello-world', durationMs: 2500 }] },
    });
    /** Each play request the server received: the channel, the media, the playback id. */
    const plays: { channel: string; media: string; playbackId: string }[] = [];
    const watched: SimulatedServer = {
      handle: (request) => {
        const play = /^\/channels\/([^/]+)\/play$/.exec(request.path);
        if (request.method === 'POST' && play)
          plays.push({
            channel: play[1]!,
            media: String(request.query.media),
            playbackId: String(request.query.playbackId),
          });
        return simulator.handle(request);
      },
      connectEvents: (request, deliver) => simulator.connectEvents(request, deliver),
    };
    const wire = await startWireServer(watched, {
      users: [{ username: 'ringflow', password: 'secret' }],
      clock: systemClock,
    });
    const proxy = await EventSocketProxy.start(wire.port);
    const gaps: GapReport[] = [];
    const ended: CallEnded[] = [];
    const app = createApplication({
      servers: [
        {
          name: 'pbx',
          url: proxy.url,
          username: 'ringflow',
          password: 'secret',
          eventStream: { backoff: { initialDelayMs: 100, maxDelayMs: 500 }, pingIntervalMs: 0 },
        },
      ],
      apps: [APP],
      call: machine,
      watchdog: false,
      logger: pino({ level: 'silent' }),
      onGap: (report) => gaps.push(report),
    });
    app.callEnded$.subscribe((e) => ended.push(e));
    const callers = Array.from({ length: CALLERS }, (_, i) => `caller-${i + 1}`);
    const greetings = () => plays.filter((p) => p.media === 'sound:hello-world');
    const menus = () =>
      new Set(plays.filter((p) => p.media.startsWith('sound:demo-instruct')).map((p) => p.channel));
    try {
      await app.start();
      for (const channelId of callers) simulator.driver.placeCall({ app: APP, channelId });
      await until('every greeting to start', () => greetings().length === CALLERS);
      // The network under the event socket fails: the greetings end while nobody hears it.
      proxy.down();
      const cutAt = Date.now();
      await until('the event socket to be gone', () => wire.eventConnections === 0);
      await until('every greeting to end on the server', async () => {
        const left = await Promise.all(
          greetings().map((g) =>
            simulator.handle({ method: 'GET', path: `/playbacks/${g.playbackId}`, query: {} }),
          ),
        );
        return left.every((reply) => reply.status === 404);
      });
      // Callers whose greeting ended before the cut (none but on a very slow machine) heard the
      // menu already; every other call's PlaybackFinished was lost.
      const before = menus();
      // Down for 3 s in all, as the operator's cut was.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 3000 - (Date.now() - cutAt))));
      proxy.restore();
      await until('every call to reach the main menu', () => menus().size === CALLERS, { timeoutMs: 20_000 });
      expect(gaps).toHaveLength(1);
      expect(gaps[0]).toMatchObject({ endedCalls: [], adoptedCalls: [] });
      const lost = callers.filter((c) => !before.has(c));
      expect(lost.length).toBeGreaterThan(0);
      expect([...gaps[0]!.recoveredCalls].sort()).toEqual(lost.sort());
      expect(app.metrics.eventsRecovered.get({ type: 'PlaybackFinished', reason: 'gap' })).toBe(lost.length);
      // Each greeting was played once: the recovery told the flow it finished, it was not replayed.
      expect(greetings()).toHaveLength(CALLERS);
      for (const channelId of callers) simulator.driver.hangup(channelId);
      await until('every call to end', () => app.activeCalls().length === 0);
      expect(ended.map((e) => [e.callId, e.outcome, e.result]).sort()).toEqual(
        callers.map((c) => [c, 'completed', 'hungUp']).sort(),
      );
      expect(app.counters()).toMatchObject({ activeSessions: 0, timers: 0, pendingRequests: 0, routes: 0 });
    } finally {
      await app.stop();
      await proxy.close();
      await wire.close();
      simulator.close();
    }
  });
});
