/**
 * How fast the `ringflow` command starts and how much memory it holds, against the targets of
 * issue 16 (medians of several runs; run after `npm run build`, which `npm run bench` does):
 *
 *   npx tsx bench/cli-startup.ts [--runs 7] [--idle 2000]
 *
 *   ringflow --help                 wall < 150 ms, peak resident memory < 60 MB
 *   ringflow validate <flows/*.yaml>  wall < 0.5 s (the flows of flows/, the same work as `validate flows/`)
 *   ringflow run --server (idle)    resident memory within 20% of a bare ws + undici application's
 *                                   (bench/startup/bareIdleApp.js), both connected to the simulator
 *
 * Not a test: figures depend on the machine and its load. Results: bench/RESULTS.md.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { systemClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { fmt, median, spread } from './apps/stats.ts';
import { idleResidentMemory, runCommand } from './startup/measureProcess.ts';

const { values } = parseArgs({ options: { runs: { type: 'string' }, idle: { type: 'string' } } });
const RUNS = Number(values.runs ?? 7);
const IDLE_MS = Number(values.idle ?? 2000);
const root = fileURLToPath(new URL('..', import.meta.url));
const RINGFLOW = 'packages/cli/bin/ringflow.js';
const flowFiles = readdirSync(`${root}/flows`)
  .filter((f) => /\.ya?ml$/.test(f) && !/\.test\.ya?ml$/.test(f))
  .map((f) => `flows/${f}`);

/** `node <args>` RUNS times: medians and spread of wall time, CPU time and peak memory. */
async function timeCommand(
  label: string,
  args: readonly string[],
  wallTarget?: number,
  rssTarget?: number,
): Promise<void> {
  const walls: number[] = [];
  const cpus: number[] = [];
  const peaks: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await runCommand(args, root);
    if (run.exitCode !== 0) throw new Error(`node ${args.join(' ')} exited ${run.exitCode}:\n${run.stderr}`);
    walls.push(run.wallMs);
    cpus.push(run.cpuMs);
    peaks.push(run.peakRssMb);
  }
  const verdict = (value: number, target: number | undefined) =>
    target === undefined ? '' : ` (target < ${target}: ${value < target ? 'ok' : 'MISSED'})`;
  console.log(
    `${label.padEnd(36)} wall ${spread(walls, 0)} ms${verdict(median(walls), wallTarget)}` +
      `  cpu ${spread(cpus, 0)} ms  peak RSS ${spread(peaks, 1)} MB${verdict(median(peaks), rssTarget)}`,
  );
}

// The floor: node starting and exiting, on this machine, under its current load.
await timeCommand('node -e 0 (node itself)', ['-e', '0']);
await timeCommand('ringflow --help', [RINGFLOW, '--help'], 150, 60);
await timeCommand(
  `ringflow validate flows/ (${flowFiles.length} flows)`,
  [RINGFLOW, 'validate', ...flowFiles],
  500,
);

const user = { username: 'bench', password: 'bench' };
const simulator = createSimulator({ clock: systemClock });
const wire = await startWireServer(simulator, { users: [user], clock: systemClock });
try {
  const ringflowRss: number[] = [];
  const bareRss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const app = `idle${i}`;
    ringflowRss.push(
      await idleResidentMemory(
        [
          RINGFLOW,
          'run',
          'flows/ivr.yaml',
          '--server',
          wire.url,
          '--user',
          user.username,
          '--password',
          user.password,
          '--app',
          app,
          '--format',
          'text',
        ],
        /is running as application/,
        IDLE_MS,
        root,
      ),
    );
    bareRss.push(
      await idleResidentMemory(
        ['bench/startup/bareIdleApp.js', wire.url, user.username, user.password, `bare${i}`],
        /is running/,
        IDLE_MS,
        root,
      ),
    );
  }
  const ratio = median(ringflowRss) / median(bareRss);
  console.log(
    `${'ringflow run --server, idle'.padEnd(34)} RSS ${spread(ringflowRss, 1)} MB vs bare ws+undici ${spread(bareRss, 1)} MB:` +
      ` ${fmt((ratio - 1) * 100)}% more (target <= 20%: ${ratio <= 1.2 ? 'ok' : 'MISSED'})`,
  );
} finally {
  await wire.close();
  simulator.close();
}
