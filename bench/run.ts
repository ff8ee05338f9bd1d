/**
 * `npm run bench`: ringflow side by side with the official Node client (ari-client) and a bare
 * ws + undici loop, on the same IVR workload (bench/ivr/ivrWorkload.ts), against the simulator
 * over the wire.
 *
 *   npm run bench [-- --quick] [--runs 3] [--concurrency 100,1000,10000] [--window 5]
 *                 [--impls ringflow,ari-client,bare] [--ringflow yaml|machine] [--profile DIR]
 *                 [--active-cap 1000] [--json FILE] [--source] [--prompt-ms 1] [--app-flags '...']
 *
 * For every concurrency level N and every run, each implementation gets a fresh simulator child
 * process (with the load generator beside it) and its own application child process:
 *   1. baseline: the application's live heap after GC, connected and idle;
 *   2. hold: N calls are placed and held at the digit prompt; live heap again -> memory per call;
 *   3. closed loop: the held callers press their digits and every call that ends is replaced,
 *      so N calls stay in flight, at most `--active-cap` (1,000) of them active, the others
 *      waiting at the digit prompt (at 10,000 calls, 9,000 listen while 1,000 move); once the held calls are done, a window of N more completions
 *      (and at least `--window` seconds) measures completed calls/s (seen by the simulator), the
 *      application's CPU time (process.cpuUsage) and event->REST latency (measured inside it);
 *   4. stop: no new calls; once all ended, live heap against the baseline (flat heap?) and what
 *      is left behind (listeners, sessions, timers).
 * Prints the median and the spread (min..max) of the runs, and ratios to ari-client and bare.
 * `--impls` also takes `transports` and `client-only`: the bare loop's IVR on ringflow's default
 * transports alone, and on its client (event stream and REST client) without the runtime, to
 * see what each layer adds (`--impls bare,transports,client-only,ringflow`).
 * BENCH_TIMELINE=<dir>: each application writes the events, requests and replies of its
 * measuring window there; `bench/profile/callTimeline.ts` prints where a call's time goes.
 * `--quick` (a smoke check, under a minute): N = 100 and 500, one run, 2 s windows.
 * `--prompt-ms`: how long each prompt plays (default 1: flat out; 200 paces the calls as a real
 * server does, so every application handles the same calls per second).
 * `--source`: the children run the packages' TypeScript sources (`--conditions=source`) instead of
 * `dist/`: same code, and CPU profiles name each source file (and no rebuild of `dist/` by
 * another process can pull the files from under a run). Without it the application children run
 * a plain JavaScript bundle of their module (`bench/out/apps/`, see `process/bundleForNode.ts`)
 * with plain node, as an installed application runs: tsx's loader held ~40 MB more at start.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { fmt, median, spread } from './apps/stats.ts';
import { bundleForNode } from './process/bundleForNode.ts';
import { ChildLink } from './process/ChildLink.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    concurrency: { type: 'string' },
    window: { type: 'string' },
    impls: { type: 'string', default: 'ringflow,ari-client,bare' },
    ringflow: { type: 'string', default: 'yaml' },
    profile: { type: 'string' },
    json: { type: 'string' },
    'active-cap': { type: 'string' },
    source: { type: 'boolean', default: false },
    'prompt-ms': { type: 'string' },
    'app-flags': { type: 'string' },
  },
});
const QUICK = values.quick;
const RUNS = Number(values.runs ?? (QUICK ? 1 : 3));
const LEVELS = (values.concurrency ?? (QUICK ? '100,500' : '100,1000,10000')).split(',').map(Number);
const WINDOW_MS = Number(values.window ?? (QUICK ? 2 : 5)) * 1000;
/**
 * Most callers active (pressing digits, hearing prompt 2) at once; the other calls in flight wait
 * at the digit prompt. With 1 ms prompts every active call is busy with requests, so 10,000
 * active calls would be 10,000 requests queued at once, not a telephony workload.
 */
const ACTIVE_CAP = Number(values['active-cap'] ?? 1000);
/**
 * How long each prompt plays (default 1 ms: the applications run flat out, as fast as the slower
 * side allows). Longer prompts pace the calls as a real server's would: every application then
 * handles the same calls per second, and CPU per call compares them at equal traffic.
 */
const PROMPT_MS = values['prompt-ms'];
if (PROMPT_MS !== undefined && !(Number(PROMPT_MS) >= 1))
  throw new Error(`--prompt-ms: expected a number of milliseconds >= 1, got '${PROMPT_MS}'`);
/** `--app-flags '--single-threaded-gc ...'`: node and V8 flags for the application children only. */
const APP_FLAGS = values['app-flags']?.split(' ').filter(Boolean) ?? [];
const RINGFLOW_VARIANT = values.ringflow === 'machine' ? 'machine' : 'yaml';

interface Implementation {
  readonly name: string;
  readonly module: URL;
  readonly env?: Readonly<Record<string, string>>;
}
const IMPLEMENTATIONS: Record<string, Implementation> = {
  ringflow: {
    name: RINGFLOW_VARIANT === 'yaml' ? 'ringflow (YAML flow)' : 'ringflow (XState machine)',
    module: new URL('./apps/ringflowApp.ts', import.meta.url),
    env: { BENCH_RINGFLOW: RINGFLOW_VARIANT },
  },
  'ari-client': { name: 'ari-client', module: new URL('./apps/ariClientApp.ts', import.meta.url) },
  bare: { name: 'bare ws+undici', module: new URL('./apps/bareApp.ts', import.meta.url) },
  // The bare loop's IVR on ringflow's layers, to see what each adds: its transports alone, then
  // its client (event stream and REST client) without the runtime.
  transports: {
    name: 'bare IVR on ringflow transports',
    module: new URL('./apps/transportsApp.ts', import.meta.url),
  },
  'client-only': {
    name: 'bare IVR on ringflow client',
    module: new URL('./apps/clientOnlyApp.ts', import.meta.url),
  },
};
const chosen = values.impls.split(',').map((key) => {
  const impl = IMPLEMENTATIONS[key];
  if (!impl)
    throw new Error(`--impls: unknown '${key}'; choose from ${Object.keys(IMPLEMENTATIONS).join(', ')}`);
  return { key, ...impl };
});

interface Memory {
  heapUsed: number;
  external: number;
  rss: number;
}
interface Mark {
  at: number;
  monotonicUs: number;
  cpu: NodeJS.CpuUsage;
  /** CPU time of the main thread and of the other threads (Linux only). */
  threads?: { mainMs: number; otherMs: number };
  latency: { count: number; p50: number; p99: number; max: number };
}
interface Counts {
  placed: number;
  completed: number;
  failed: number;
  inFlight: number;
  completedMs: number;
  at: number;
  cpu: NodeJS.CpuUsage;
}
interface Final extends Memory {
  activeCalls: number;
  leftovers: Record<string, number>;
  errors: string[];
  errorCount: number;
}

/** One implementation, one concurrency level, one run. */
interface Sample {
  impl: string;
  calls: number;
  run: number;
  callsPerSecond: number;
  /** Application CPU (user + system) per completed call, in milliseconds (= seconds per 1,000 calls). */
  cpuMsPerCall: number;
  /** The kernel's part of it (system time: socket reads and writes), in milliseconds per call. */
  sysMsPerCall: number;
  /**
   * The part of it on threads other than the main one (V8's parallel and concurrent garbage
   * collection, its background compiler), ms per call; NaN where /proc is not there.
   */
  helperMsPerCall: number;
  /** Share of one core the application used during the window. */
  appCpuLoad: number;
  /** Share of one core the simulator (with the load generator) used during the window. */
  simCpuLoad: number;
  /** Simulator CPU (with the load generator) per completed call, ms: the cost of the test rig, not of the app. */
  simCpuMsPerCall: number;
  latencyP50: number;
  latencyP99: number;
  /** Mean wall-clock length of a completed call during the window, ms. */
  callMs: number;
  latencySamples: number;
  /** Live heap per call in progress, bytes. */
  bytesPerCall: number;
  /** Live heap after every call ended, minus the idle baseline, bytes. */
  heapGrowth: number;
  /** Resident memory (after two full GCs) connected and idle, and after every call ended, bytes. */
  rssStart: number;
  rssAfter: number;
  /** Calls the application handled during the run. */
  totalCalls: number;
  /** Calls that failed or were still in progress 30 s after the load stopped, plus application errors. */
  errors: number;
  /** Calls still in progress 30 s after the load stopped (the application could not keep up). */
  stuckCalls: number;
  leftovers: Record<string, number>;
  errorSamples: string[];
  /** Calls completed in the measuring window, and the window on the application's monotonic clock (µs). */
  windowCalls: number;
  appWindowUs: [number, number];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cpuMs = (from: NodeJS.CpuUsage, to: NodeJS.CpuUsage) =>
  (to.user - from.user + to.system - from.system) / 1000;

function profileFlags(name: string): string[] {
  const source = values.source ? ['--conditions=source'] : [];
  return values.profile
    ? [
        ...source,
        '--cpu-prof',
        `--cpu-prof-dir=${values.profile}`,
        `--cpu-prof-name=${name}-${process.pid}-${Date.now()}.cpuprofile`,
      ]
    : source;
}

async function waitForCompletions(sim: ChildLink, goal: number, timeoutMs: number): Promise<Counts> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const counts = await sim.request<Counts>('counts');
    if (counts.completed + counts.failed >= goal || performance.now() > deadline) return counts;
    await sleep(50);
  }
}

const bundles = new Map<string, Promise<URL>>();
/**
 * The module an application child runs: its TypeScript with `--source` (tsx, for profiles that
 * name each source file), else one JavaScript bundle of it made once per bench (plain node, as
 * `ringflow run` and an ari-client application run: no loader in the resident memory).
 */
function appModule(module: URL): Promise<URL> {
  if (values.source) return Promise.resolve(module);
  let bundle = bundles.get(module.href);
  if (!bundle) {
    bundle = bundleForNode(module);
    bundles.set(module.href, bundle);
  }
  return bundle;
}

async function measure(impl: (typeof chosen)[number], calls: number, run: number): Promise<Sample> {
  const sim = await ChildLink.start(new URL('./load/simulatorProcess.ts', import.meta.url), 'simulator', {
    nodeFlags: profileFlags(`simulator-${impl.key}-${calls}`),
    ...(PROMPT_MS === undefined ? {} : { env: { BENCH_PROMPT_MS: PROMPT_MS } }),
  });
  const { url } = sim.ready as { url: string };
  const app = await ChildLink.start(await appModule(impl.module), impl.name, {
    javascript: !values.source,
    env: { BENCH_URL: url, ...impl.env },
    nodeFlags: [...APP_FLAGS, ...profileFlags(`${impl.key}-${calls}`)],
  });
  try {
    const baseline = await app.request<Memory>('baseline');
    const timeoutMs = 60_000 + calls * 20;
    await sim.request('hold', { calls });
    const held = await app.request<Memory>('heldMemory', { calls, timeoutMs });
    await sim.request('release', { activeCap: ACTIVE_CAP });
    await sim.request('keep', { calls });
    // Warm-up: the held calls finish together, in one burst. The calls that replace them start
    // together too, so calls move in waves; the window is one whole generation (N completions,
    // and at least --window seconds), started once the held generation is done.
    await waitForCompletions(sim, calls, timeoutMs);
    const appStart = await app.request<Mark>('mark');
    const simStart = await sim.request<Counts>('counts');
    const windowEnd = performance.now() + WINDOW_MS;
    await waitForCompletions(sim, simStart.completed + simStart.failed + calls, timeoutMs);
    if (performance.now() < windowEnd) await sleep(windowEnd - performance.now());
    const simEnd = await sim.request<Counts>('counts');
    const appEnd = await app.request<Mark>('mark');
    const { stuck } = await sim.request<{ stuck: number }>('stop', { timeoutMs: 30_000 });
    const last = await sim.request<Counts>('counts');
    const final = await app.request<Final>('final');
    const failures = last.failed > 0 ? await sim.request<string[]>('failures') : [];
    const completed = simEnd.completed - simStart.completed;
    const simSeconds = (simEnd.at - simStart.at) / 1000;
    const appSeconds = (appEnd.at - appStart.at) / 1000;
    const appCpu = cpuMs(appStart.cpu, appEnd.cpu);
    return {
      impl: impl.key,
      calls,
      run,
      callsPerSecond: completed / simSeconds,
      cpuMsPerCall: appCpu / completed,
      sysMsPerCall: (appEnd.cpu.system - appStart.cpu.system) / 1000 / completed,
      helperMsPerCall:
        appStart.threads && appEnd.threads
          ? (appEnd.threads.otherMs - appStart.threads.otherMs) / completed
          : Number.NaN,
      appCpuLoad: appCpu / 1000 / appSeconds,
      simCpuLoad: cpuMs(simStart.cpu, simEnd.cpu) / 1000 / simSeconds,
      simCpuMsPerCall: cpuMs(simStart.cpu, simEnd.cpu) / completed,
      callMs: (simEnd.completedMs - simStart.completedMs) / completed,
      latencyP50: appEnd.latency.p50,
      latencyP99: appEnd.latency.p99,
      latencySamples: appEnd.latency.count,
      bytesPerCall: (held.heapUsed - baseline.heapUsed) / calls,
      heapGrowth: final.heapUsed - baseline.heapUsed,
      rssStart: baseline.rss,
      rssAfter: final.rss,
      totalCalls: last.completed + last.failed,
      // Calls still in progress when the load stopped are among last.failed already.
      errors: last.failed + final.errorCount,
      stuckCalls: stuck,
      leftovers: final.leftovers,
      errorSamples: [...failures, ...final.errors].slice(0, 5),
      windowCalls: completed,
      appWindowUs: [appStart.monotonicUs, appEnd.monotonicUs],
    };
  } finally {
    await app.stop();
    await sim.stop();
  }
}

const samples: Sample[] = [];
const started = performance.now();
process.stderr.write(
  `bench: ${chosen.map((c) => c.name).join(', ')}; concurrency ${LEVELS.join(', ')}; ${RUNS} run(s); ${WINDOW_MS / 1000} s windows; prompts ${PROMPT_MS ?? 1} ms\n`,
);
for (const calls of LEVELS) {
  for (let run = 1; run <= RUNS; run++) {
    for (const impl of chosen) {
      const s = await measure(impl, calls, run);
      samples.push(s);
      process.stderr.write(
        `  N=${calls} run ${run} ${impl.key.padEnd(10)} ${fmt(s.callsPerSecond).padStart(6)} calls/s, ` +
          `cpu ${fmt(s.cpuMsPerCall, 2)} ms/call (sys ${fmt(s.sysMsPerCall, 2)}, helper threads ${fmt(s.helperMsPerCall, 2)}), sim cpu ${fmt(s.simCpuMsPerCall, 2)} ms/call (app ${fmt(s.appCpuLoad * 100)}%, sim ${fmt(s.simCpuLoad * 100)}% of a core), ` +
          `call ${fmt(s.callMs, 1)} ms, latency p50 ${fmt(s.latencyP50, 2)} p99 ${fmt(s.latencyP99, 2)} ms, ${fmt(s.bytesPerCall / 1024, 1)} KiB/call, ` +
          `heap after ${fmt(s.heapGrowth / 1024)} KiB, rss ${fmt(s.rssStart / 1048576, 1)}->${fmt(s.rssAfter / 1048576, 1)} MiB, ${s.totalCalls} calls, ${s.errors} errors ${JSON.stringify(s.leftovers)}` +
          `${s.errorSamples.length ? `\n    e.g. ${s.errorSamples.join('\n         ')}` : ''}\n`,
      );
    }
  }
}

type Metric = { label: string; of: (s: Sample) => number; digits: number; better: 'higher' | 'lower' };
const METRICS: Metric[] = [
  { label: 'completed calls/s', of: (s) => s.callsPerSecond, digits: 0, better: 'higher' },
  { label: 'event->REST p50 (ms)', of: (s) => s.latencyP50, digits: 2, better: 'lower' },
  { label: 'event->REST p99 (ms)', of: (s) => s.latencyP99, digits: 2, better: 'lower' },
  {
    label: 'app CPU ms per call (= s per 1,000 calls)',
    of: (s) => s.cpuMsPerCall,
    digits: 3,
    better: 'lower',
  },
  {
    label: 'simulator CPU ms per call (with the load generator)',
    of: (s) => s.simCpuMsPerCall,
    digits: 3,
    better: 'lower',
  },
  {
    label: 'app memory per concurrent call (KiB)',
    of: (s) => s.bytesPerCall / 1024,
    digits: 1,
    better: 'lower',
  },
  { label: 'heap after the run vs idle (KiB)', of: (s) => s.heapGrowth / 1024, digits: 0, better: 'lower' },
  { label: 'app resident memory, idle (MiB)', of: (s) => s.rssStart / 1048576, digits: 1, better: 'lower' },
  {
    label: 'app resident memory after the run (MiB)',
    of: (s) => s.rssAfter / 1048576,
    digits: 1,
    better: 'lower',
  },
  { label: 'errors', of: (s) => s.errors, digits: 0, better: 'lower' },
];

const lines: string[] = [];
lines.push(
  `### Results (${new Date().toISOString().slice(0, 10)}, ${RUNS} run(s) per cell, median (min–max))`,
);
lines.push('');
lines.push(
  `Machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}; ${WINDOW_MS / 1000} s windows; prompts ${PROMPT_MS ?? 1} ms.`,
);
for (const calls of LEVELS) {
  lines.push('', `#### ${calls.toLocaleString('en')} concurrent calls`, '');
  lines.push(
    `| metric | ${chosen.map((c) => c.name).join(' | ')} | ringflow / ari-client | ringflow / bare |`,
  );
  lines.push(`|---|${chosen.map(() => '---:').join('|')}|---:|---:|`);
  for (const metric of METRICS) {
    const cells = chosen.map((c) =>
      spread(samples.filter((s) => s.impl === c.key && s.calls === calls).map(metric.of), metric.digits),
    );
    const med = (key: string) =>
      median(samples.filter((s) => s.impl === key && s.calls === calls).map(metric.of));
    const ratio = (other: string) => {
      const r = med('ringflow') / med(other);
      return Number.isFinite(r) && metric.label !== 'errors' ? `${r.toFixed(2)}x` : '-';
    };
    lines.push(`| ${metric.label} | ${cells.join(' | ')} | ${ratio('ari-client')} | ${ratio('bare')} |`);
  }
  const loads = chosen.map((c) => {
    const mine = samples.filter((s) => s.impl === c.key && s.calls === calls);
    return `${c.name}: app ${fmt(median(mine.map((s) => s.appCpuLoad)) * 100)}%, simulator ${fmt(median(mine.map((s) => s.simCpuLoad)) * 100)}%`;
  });
  lines.push('', `CPU load during the window (share of one core): ${loads.join('; ')}.`);
  const left = chosen.map((c) => {
    const last = samples.filter((s) => s.impl === c.key && s.calls === calls).at(-1);
    return `${c.name} after ${last?.totalCalls ?? 0} calls: ${JSON.stringify(last?.leftovers ?? {})}`;
  });
  lines.push('', `Left behind once every call ended (last run): ${left.join('; ')}.`);
}
console.log(lines.join('\n'));
process.stderr.write(`bench took ${fmt((performance.now() - started) / 1000)} s\n`);
if (values.json) await writeFile(values.json, `${JSON.stringify(samples, null, 2)}\n`);
