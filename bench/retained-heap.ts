/**
 * What a call costs in memory while it is live, and what ended calls leave behind: the load
 * test's workload (test/reliability/load.test.ts: the reliability IVR machine, one caller every
 * 10 ms, half of them hanging up at a random step, seeded) on the in-process simulator in virtual
 * time, with heap figures the test itself no longer asserts (resource figures are measured here,
 * behaviour is asserted there).
 *
 *   npx tsx bench/retained-heap.ts [--calls 5000] [--runs 3] [--seed 5000]
 *
 * Each run warms up with 200 calls, takes the live heap after a full GC as its baseline, places
 * `--calls` calls, and reports: the calls live at mid-run and the heap they use (simulator
 * included) per live call, and the heap still held once every call has ended, per ended call.
 * Prints each run and the medians. Not part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { VirtualClock } from '@ringflow/client';
import { createSimulator } from '@ringflow/simulator';
import { pino } from 'pino';
import { RELIABILITY_DIALPLAN } from '../test/reliability/appOnServer.ts';
import { IVR_CALL_MAX_MS } from '../test/reliability/ivrCallMachine.ts';
import { loadApplication } from '../test/reliability/loadApplication.ts';
import { measureHeap } from './apps/measureHeap.ts';
import { scheduleCallers } from '../test/reliability/scheduleCallers.ts';
import { seededRandom } from '../test/reliability/seededRandom.ts';
import { fmt, median, spread } from './apps/stats.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '3' },
    seed: { type: 'string', default: '5000' },
  },
});
const CALLS = Number(values.calls);
const RUNS = Number(values.runs);
const SEED = Number(values.seed);
const SPACING_MS = 10;
const WARM_UP = 200;
const MiB = 1024 * 1024;

interface RunFigures {
  readonly live: number;
  readonly liveMiB: number;
  readonly perLiveCallKiB: number;
  readonly retainedMiB: number;
  readonly retainedPerEndedCallBytes: number;
}

async function run(seed: number): Promise<RunFigures> {
  const random = seededRandom(seed);
  const clock = new VirtualClock();
  const sim = createSimulator({ clock, dialplan: RELIABILITY_DIALPLAN });
  const app = loadApplication(sim, clock, pino({ level: 'silent' }));
  await app.start();
  const plan = { spacingMs: SPACING_MS, pressShare: 0.5, hangUpShare: 0.5 };
  scheduleCallers(clock, () => sim, random, { ...plan, calls: WARM_UP, prefix: 'warm' });
  await clock.advance(WARM_UP * SPACING_MS + IVR_CALL_MAX_MS + 1000);
  const baseline = measureHeap();
  scheduleCallers(clock, () => sim, random, { ...plan, calls: CALLS, prefix: 'load' });
  await clock.advance((CALLS * SPACING_MS) / 2);
  const live = app.counters().activeSessions;
  const withLive = measureHeap() - baseline;
  await clock.advance((CALLS * SPACING_MS) / 2 + IVR_CALL_MAX_MS + 1000);
  if (app.counters().activeSessions !== 0 || sim.channelCount !== 0)
    throw new Error(
      'calls were left at the end of the run: see npx vitest run test/reliability/load.test.ts',
    );
  const retained = measureHeap() - baseline;
  await app.stop();
  sim.close();
  return {
    live,
    liveMiB: withLive / MiB,
    perLiveCallKiB: withLive / live / 1024,
    retainedMiB: retained / MiB,
    retainedPerEndedCallBytes: retained / CALLS,
  };
}

const runs: RunFigures[] = [];
for (let i = 0; i < RUNS; i++) {
  const figures = await run(SEED + i);
  runs.push(figures);
  console.info(
    `run ${i + 1}/${RUNS} (seed ${SEED + i}): ${figures.live} live at mid-run using ${fmt(figures.liveMiB, 1)} MiB ` +
      `(${fmt(figures.perLiveCallKiB, 1)} KiB per live call); retained after all ${CALLS} ended: ` +
      `${fmt(figures.retainedMiB, 2)} MiB (${fmt(figures.retainedPerEndedCallBytes, 0)} B per ended call)`,
  );
}
const column = (pick: (r: RunFigures) => number, digits: number) => spread(runs.map(pick), digits);
console.info(`\nmedians of ${RUNS} runs (min–max), ${CALLS} calls, one every ${SPACING_MS} ms:`);
console.info(`  live calls at mid-run          ${column((r) => r.live, 0)}`);
console.info(`  heap per live call (KiB)       ${column((r) => r.perLiveCallKiB, 1)}`);
console.info(`  retained after all ended (MiB) ${column((r) => r.retainedMiB, 2)}`);
console.info(`  retained per ended call (B)    ${column((r) => r.retainedPerEndedCallBytes, 0)}`);
console.info(
  `  retained / live-call cost      ${fmt(median(runs.map((r) => (r.retainedPerEndedCallBytes / (r.perLiveCallKiB * 1024)) * 100)), 2)} % of a live call per ended call`,
);
