import { Writable } from 'node:stream';
import { VirtualClock } from '@ringflow/client';
import { createSimulator } from '@ringflow/simulator';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { expectNothingLeft, RELIABILITY_DIALPLAN } from './appOnServer.ts';
import { IVR_CALL_MAX_MS } from './ivrCallMachine.ts';
import { loadApplication } from './loadApplication.ts';
import { followStasisStarts, scheduleCallers } from './scheduleCallers.ts';
import { seededRandom } from './seededRandom.ts';
import { settle, watchUnhandledRejections } from './watchUnhandledRejections.ts';

const unhandled = watchUnhandledRejections();

/** A log sink that only counts lines by message and outcome (keeping 5,000 calls' lines would be the leak). */
function countingLogger() {
  const counts = new Map<string, number>();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        const record = JSON.parse(line) as { msg?: string; outcome?: string };
        const key = record.outcome ? `${record.msg}:${record.outcome}` : String(record.msg);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), counts };
}

describe('load: 5,000 calls through the simulator in virtual time', () => {
  // Heap figures (per live call, retained after all ended) are measured by bench/retained-heap.ts.
  it('with seeded hang-ups at every step, every call is served and nothing is left (seed 5000)', async () => {
    const random = seededRandom(5000);
    const clock = new VirtualClock();
    const sim = createSimulator({ clock, dialplan: RELIABILITY_DIALPLAN });
    const { logger, counts } = countingLogger();
    const app = loadApplication(sim, clock, logger);
    await app.start();
    const sent = followStasisStarts(sim);

    // Warm up first, as the bench does (the same seeded sequence of callers).
    scheduleCallers(clock, () => sim, random, {
      calls: 200,
      spacingMs: 10,
      pressShare: 0.5,
      hangUpShare: 0.5,
      prefix: 'warm',
    });
    await clock.advance(200 * 10 + IVR_CALL_MAX_MS + 1000);
    expectNothingLeft(app);

    const calls = 5000;
    const spacingMs = 10;
    // Half the callers hang up at a random moment: during the answer, the prompt, the digit wait,
    // the recording, the pause or the final hangup.
    scheduleCallers(clock, () => sim, random, {
      calls,
      spacingMs,
      pressShare: 0.5,
      hangUpShare: 0.5,
      prefix: 'load',
    });
    await clock.advance((calls * spacingMs) / 2);
    const live = app.counters().activeSessions;
    // Calls overlap: hundreds are in progress at once, each at its own step.
    expect(live).toBeGreaterThan(100);
    await clock.advance((calls * spacingMs) / 2 + IVR_CALL_MAX_MS + 1000);

    const total = calls + 200;
    expect(sent.size).toBe(total);
    expect(app.metrics.summary()).toMatchObject({ callsStarted: total, callsEnded: total, activeCalls: 0 });
    expect(counts.get('call started')).toBe(total);
    expect((counts.get('call ended:completed') ?? 0) + (counts.get('call ended:failed') ?? 0)).toBe(total);
    expect(counts.get('call ended:failed') ?? 0).toBe(0);
    expect(sim.channelCount).toBe(0);
    expectNothingLeft(app);
    await app.stop();
    sim.close();
    expect(clock.pendingTimers).toBe(0);
    await settle();
    expect(unhandled).toEqual([]);
    console.info(
      `load: ${total} calls, ${live} live at mid-run; outcomes: completed ${counts.get('call ended:completed')}`,
    );
  }, 120_000);
});
