import { type TransportRequest, VirtualClock } from '@ringflow/client';
import {
  type CallHandle,
  type CallInput,
  callActors,
  createApplication,
  type GapReport,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { captureLogs } from '../reliability/captureLogs.ts';
import { FaultyRestTransport } from '../reliability/FaultyRestTransport.ts';
import { expectNothingLeft } from './harness.ts';

/** Answers and is done at once: the session hangs the caller up. */
const answerAndLeave = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'done' },
    },
    done: { type: 'final' },
  },
});

const isHangup = (r: TransportRequest) => r.method === 'DELETE' && r.path.startsWith('/channels/');

/**
 * An application whose hang-ups are answered 503 while `faulty.enabled` (and `failHangups`
 * allows: a number of hang-ups to fail, or Infinity).
 */
function setUp(options: { failHangups: number; leftoverSweepMs?: number }) {
  const clock = new VirtualClock();
  const sim = createSimulator({ clock });
  const events = inProcessEventTransport(sim);
  const logs = captureLogs('debug');
  let failures = 0;
  const faulty = new FaultyRestTransport(
    inProcessRestTransport(sim),
    () => 0,
    { status503: 1 },
    (r) => isHangup(r) && failures++ < options.failHangups,
  );
  const app = createApplication({
    servers: [
      {
        name: 'pbx',
        url: 'http://pbx/ari',
        username: 'ringflow',
        password: 'secret',
        restTransport: faulty,
        eventTransport: events,
        eventStream: { pingIntervalMs: 0, random: () => 0.5 },
      },
    ],
    apps: ['ivr'],
    call: answerAndLeave,
    clock,
    logger: logs.logger,
    cleanupRetry: { random: () => 0.5 },
    ...(options.leftoverSweepMs === undefined ? {} : { leftoverSweepMs: options.leftoverSweepMs }),
  });
  faulty.enabled = true;
  return { clock, sim, events, logs, faulty, app };
}

describe("the runtime's own hang-ups are retried until the caller is gone", () => {
  it('a final hang-up answered 503 is retried on the clock: the caller is hung up, the session ends failed', async () => {
    const { clock, sim, app, faulty } = setUp({ failHangups: 2 });
    await app.start();
    sim.driver.placeCall({ app: 'ivr', channelId: 'c1' });
    await clock.advance(0);
    expect(faulty.injected.status503).toBe(2); // the machine's hang-up, then the first cleanup attempt
    expect(sim.hasChannel('c1')).toBe(true);
    expect(app.counters()).toMatchObject({ activeSessions: 0, timers: 1, pendingRequests: 1 });
    await clock.advance(375); // the jittered backoff before attempt 2: 250..500 ms, 375 with random 0.5
    expect(sim.hasChannel('c1')).toBe(false);
    expect(app.metrics.summary()).toMatchObject({ cleanupRetries: 1, cleanupsFailed: 0, callsEnded: 1 });
    expect(app.metrics.callsEnded.sum({ status: 'failed' })).toBe(1);
    expectNothingLeft(app);
    await app.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('a hang-up failing every attempt leaves a leftover that the sweep hangs up once the server recovers', async () => {
    const { clock, sim, app, faulty, logs } = setUp({ failHangups: Number.POSITIVE_INFINITY });
    await app.start();
    sim.driver.placeCall({ app: 'ivr', channelId: 'c1' });
    await clock.advance(2000); // 3 attempts: 0, +375, +750
    expect(faulty.injected.status503).toBe(4);
    expect(sim.hasChannel('c1')).toBe(true);
    expect(app.metrics.summary()).toMatchObject({ cleanupRetries: 2, cleanupsFailed: 1 });
    expect(logs.records().some((r) => String(r.msg).includes('the next reconciliation'))).toBe(true);
    expect(app.counters()).toMatchObject({ activeSessions: 0, timers: 1, pendingRequests: 0 }); // the sweep
    faulty.enabled = false; // the server recovers
    await clock.advance(10_000);
    expect(sim.hasChannel('c1')).toBe(false);
    expect(app.metrics.registry.toPrometheus()).toContain('ringflow_leftovers_removed_total{server="pbx"} 1');
    expectNothingLeft(app);
    await app.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('the reconciliation after a gap hangs a leftover up (it is not adopted as a new call)', async () => {
    const { clock, sim, app, faulty, events } = setUp({
      failHangups: Number.POSITIVE_INFINITY,
      leftoverSweepMs: 0,
    });
    const gaps: GapReport[] = [];
    app.gaps$.subscribe((g) => gaps.push(g));
    await app.start();
    sim.driver.placeCall({ app: 'ivr', channelId: 'c1' });
    await clock.advance(2000);
    expect(sim.hasChannel('c1')).toBe(true);
    expect(app.counters().timers).toBe(0); // no sweep: leftovers wait for a gap
    faulty.enabled = false;
    events.dropConnections();
    await clock.advance(5000);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ removedLeftovers: ['c1'], adoptedCalls: [] });
    expect(sim.hasChannel('c1')).toBe(false);
    expect(app.metrics.summary()).toMatchObject({ callsStarted: 1, callsAdopted: 0 });
    expectNothingLeft(app);
    await app.stop();
  });

  it('a server that never recovers: 5 rounds, then the leftover is given up with an error; nothing is kept', async () => {
    const { clock, sim, app, logs } = setUp({ failHangups: Number.POSITIVE_INFINITY });
    await app.start();
    sim.driver.placeCall({ app: 'ivr', channelId: 'c1' });
    await clock.advance(120_000);
    expect(sim.hasChannel('c1')).toBe(true);
    expect(app.metrics.registry.toPrometheus()).toContain(
      'ringflow_leftovers_abandoned_total{server="pbx"} 1',
    );
    // The first cleanup and 5 rounds, 3 attempts each.
    expect(app.metrics.summary().cleanupsFailed).toBe(6);
    expect(logs.records().filter((r) => r.level === 50 && String(r.msg).includes('giving up'))).toHaveLength(
      1,
    );
    expectNothingLeft(app);
    await app.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('stop() does not wait for a retry timer: the waiting cleanup makes its last attempt at once', async () => {
    const { clock, sim, app } = setUp({ failHangups: 2 });
    await app.start();
    sim.driver.placeCall({ app: 'ivr', channelId: 'c1' });
    await clock.advance(0);
    expect(app.counters().timers).toBe(1);
    await app.stop(); // resolves without the clock moving
    // The server accepted the last attempt; it carries the hang-up out on its next turn, as a real
    // server does (its 204 comes before the hang-up's events).
    await clock.advance(0);
    expect(sim.hasChannel('c1')).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });
});
