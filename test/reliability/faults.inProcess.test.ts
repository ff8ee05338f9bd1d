import { VirtualClock } from '@ringflow/client';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { appOnServer, RELIABILITY_DIALPLAN, expectNothingLeft } from './appOnServer.ts';
import { expectOneOutcomeLinePerCall } from './callOutcomes.ts';
import { FaultyRestTransport } from './FaultyRestTransport.ts';
import { IVR_CALL_MAX_MS } from './ivrCallMachine.ts';
import { RestartableServer } from './RestartableServer.ts';
import { followStasisStarts, scheduleCallers } from './scheduleCallers.ts';
import { randomInt, seededRandom } from './seededRandom.ts';
import { settle, watchUnhandledRejections } from './watchUnhandledRejections.ts';

const unhandled = watchUnhandledRejections();

describe('faults in process: the runtime on the simulator', () => {
  it('450 calls while the event stream drops at 12 seeded moments (seed 7)', async () => {
    const random = seededRandom(7);
    const clock = new VirtualClock();
    const sim = createSimulator({ clock, dialplan: RELIABILITY_DIALPLAN });
    const { app, logs, events, received } = appOnServer(clock, sim, { random });
    await app.start();
    const calls = 450;
    const spacingMs = 40;
    scheduleCallers(clock, () => sim, random, {
      calls,
      spacingMs: spacingMs,
      pressShare: 0.5,
      hangUpShare: 0.4,
    });
    const drops: number[] = [];
    for (let d = 0; d < 12; d++) drops.push(randomInt(random, calls * spacingMs));
    for (const at of drops) clock.setTimeout(() => events.dropConnections(), at);
    const gaps: number[] = [];
    // Calls whose StasisStart fell into a gap and that the reconciliation adopted.
    const adopted = new Set<string>();
    app.gaps$.subscribe((g) => {
      gaps.push(g.gap.durationMs);
      for (const id of g.adoptedCalls) adopted.add(id);
    });
    // What the server sent, whether or not the socket carried it.
    const sent = followStasisStarts(sim);

    await clock.advance(calls * spacingMs + IVR_CALL_MAX_MS + 10_000);

    expect(gaps.length).toBeGreaterThanOrEqual(1);
    expect(app.metrics.summary().reconnects).toBe(gaps.length);
    // Calls placed while no connection was registered were refused by Stasis (hung up by the
    // dialplan); calls whose StasisStart was sent into a dying socket are adopted after the gap.
    for (const id of received) expect(sent.has(id)).toBe(true);
    const lostInGap = [...sent].filter((id) => !received.has(id)).length;
    const served = new Set([...received, ...adopted]);
    expect(served).toEqual(sent);
    const outcomes = expectOneOutcomeLinePerCall(logs.records(), served);
    expect(outcomes.completed).toBeGreaterThan(0);
    expect(outcomes.reconciled).toBeGreaterThan(0);
    expect(outcomes.failed ?? 0).toBe(0);
    expect(app.metrics.summary()).toMatchObject({
      callsStarted: served.size,
      callsEnded: served.size,
      callsAdopted: adopted.size,
    });
    expect(sim.channelCount).toBe(0);
    expectNothingLeft(app);
    await app.stop();
    sim.close();
    expect(clock.pendingTimers).toBe(0);
    await settle();
    expect(unhandled).toEqual([]);
    console.info(
      `drops: ${drops.length}, gaps: ${gaps.length}, calls placed: ${calls}, StasisStart sent: ${sent.size}, received: ${received.size}, lost in a gap: ${lostInGap}, adopted: ${adopted.size}, outcomes: ${JSON.stringify(outcomes)}`,
    );
  });

  it('500 calls while 8% of REST requests time out, lose their reply, or answer 500/503 (seed 11)', async () => {
    const random = seededRandom(11);
    const clock = new VirtualClock();
    const sim = createSimulator({ clock, dialplan: RELIABILITY_DIALPLAN });
    let faulty: FaultyRestTransport | undefined;
    const { app, logs, received } = appOnServer(clock, sim, {
      random,
      wrapRest: (inner) => {
        faulty = new FaultyRestTransport(inner, seededRandom(12), {
          swallow: 0.02,
          loseReply: 0.02,
          status500: 0.02,
          status503: 0.02,
        });
        return faulty;
      },
    });
    await app.start();
    faulty!.enabled = true;
    const calls = 500;
    scheduleCallers(clock, () => sim, random, { calls, spacingMs: 40, pressShare: 0.5, hangUpShare: 0.4 });

    await clock.advance(calls * 40 + IVR_CALL_MAX_MS + 10_000);

    expect(faulty!.injectedTotal).toBeGreaterThan(50);
    expect(received.size).toBe(calls);
    const outcomes = expectOneOutcomeLinePerCall(logs.records(), received);
    expect((outcomes.completed ?? 0) + (outcomes.failed ?? 0)).toBe(calls);
    expect(app.metrics.summary()).toMatchObject({ callsStarted: calls, callsEnded: calls, activeCalls: 0 });
    expect(sim.channelCount).toBe(0);
    expectNothingLeft(app);
    await app.stop();
    sim.close();
    expect(clock.pendingTimers).toBe(0);
    await settle();
    expect(unhandled).toEqual([]);
    console.info(
      `REST faults injected: ${JSON.stringify(faulty!.injected)}, outcomes: ${JSON.stringify(outcomes)}, cleanup retries: ${app.metrics.summary().cleanupRetries}, cleanups failed: ${app.metrics.summary().cleanupsFailed}`,
    );
  });

  it('the server restarts under 200 calls: every session ends, calls after the restart are served (seed 23)', async () => {
    const random = seededRandom(23);
    const clock = new VirtualClock();
    const server = new RestartableServer({ clock, dialplan: RELIABILITY_DIALPLAN });
    const { app, logs, events, received } = appOnServer(clock, server, { random });
    const gaps: { ended: number; kept: number }[] = [];
    app.gaps$.subscribe((g) => gaps.push({ ended: g.endedCalls.length, kept: g.keptCalls.length }));
    await app.start();
    const calls = 200;
    scheduleCallers(clock, () => (server.running ? server.simulator : undefined), random, {
      calls,
      spacingMs: 40,
      pressShare: 0.5,
      hangUpShare: 0.4,
    });
    // In the middle of the calls the server goes down for 3 s: its sockets drop, its channels vanish.
    clock.setTimeout(() => {
      server.stop();
      events.dropConnections();
    }, 4000);
    clock.setTimeout(() => server.start(), 7000);

    await clock.advance(calls * 40 + IVR_CALL_MAX_MS + 10_000);

    expect(server.generation).toBe(2);
    expect(gaps.length).toBeGreaterThanOrEqual(1);
    expect(gaps.reduce((n, g) => n + g.ended, 0)).toBeGreaterThan(0);
    const outcomes = expectOneOutcomeLinePerCall(logs.records(), received);
    expect(outcomes.reconciled).toBeGreaterThan(0);
    expect(outcomes.completed).toBeGreaterThan(0);
    expect(app.metrics.summary()).toMatchObject({ callsStarted: received.size, callsEnded: received.size });
    expect(server.simulator.channelCount).toBe(0);
    // Hang-ups that failed while the server was down were retried, then kept as leftovers until
    // the reconciliation found their channels gone with the old server: none is kept or abandoned.
    expect(app.metrics.summary().cleanupRetries).toBeGreaterThan(0);
    expect(app.metrics.leftoversAbandoned.total()).toBe(0);
    expectNothingLeft(app);
    await app.stop();
    server.stop();
    expect(clock.pendingTimers).toBe(0);
    await settle();
    expect(unhandled).toEqual([]);
    console.info(
      `restart: gaps ${JSON.stringify(gaps)}, StasisStart received: ${received.size}, outcomes: ${JSON.stringify(outcomes)}, cleanup retries: ${app.metrics.summary().cleanupRetries}, cleanups failed: ${app.metrics.summary().cleanupsFailed}`,
    );
  });
});
