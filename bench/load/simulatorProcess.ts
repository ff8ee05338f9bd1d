/**
 * Child process of `npm run bench`: the simulator behind its wire transport on a loopback port,
 * with the IVR load generator beside it (same process, so placing calls costs no network hop).
 * The parent drives it over IPC: hold / release / keep / counts / stop.
 */
import { systemClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { BENCH_USER, PROMPT_MS, promptSounds } from '../ivr/ivrWorkload.ts';
import { serveParent } from '../process/serveParent.ts';
import { IvrLoadGenerator } from './IvrLoadGenerator.ts';

/** BENCH_PROMPT_MS (`npm run bench -- --prompt-ms`): how long each prompt plays. */
const promptMs = Number(process.env.BENCH_PROMPT_MS ?? PROMPT_MS);
const sim = createSimulator({
  clock: systemClock,
  sounds: { extraSounds: promptSounds(promptMs) },
});
const wire = await startWireServer(sim, {
  users: [BENCH_USER],
  clock: systemClock,
  onError: (error) => process.stderr.write(`simulator error: ${String(error)}\n`),
});
const load = new IvrLoadGenerator(sim);

serveParent(
  {
    hold: (args: { calls: number }) => load.hold(args.calls),
    release: (args: { activeCap?: number }) => load.release(args?.activeCap),
    keep: (args: { calls: number }) => load.keep(args.calls),
    counts: () => ({ ...load.counts(), cpu: process.cpuUsage(), channels: sim.channelCount }),
    stop: (args: { timeoutMs: number }) => load.stop(args.timeoutMs),
    failures: () => load.failures.slice(0, 20),
  },
  { url: wire.url },
  async () => {
    await wire.close();
    sim.close();
  },
);
