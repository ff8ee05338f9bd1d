import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, join } from 'node:path';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { serveParent } from '../process/serveParent.ts';
import { LatencyProbe } from './LatencyProbe.ts';
import { quantile } from './stats.ts';
import { threadCpu } from './threadCpu.ts';

/** One of the IVR applications under test, as the harness sees it. */
export interface BenchApp {
  /** Calls the application is handling now. */
  activeCalls(): number;
  /** Things that should be back to zero once every call ended (listeners, sessions, timers...). */
  leftovers(): Record<string, number>;
  /** Problems seen (failed requests, unexpected events); empty when all went well. */
  errors(): readonly string[];
  close(): Promise<void>;
}

/** What an application gets to start: the simulator's interface root and the probe to report to. */
export interface BenchAppContext {
  /** `http://127.0.0.1:<port>/ari`. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly probe: LatencyProbe;
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

/** Heap and resident memory after two full collections, so only live objects count. */
function liveMemory() {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss };
}

/**
 * BENCH_ALLOC_PROFILE=<dir>: a sampling profile of every allocation (collected objects included)
 * from the first `mark` (the measuring window opens) to the second; open the `.heapprofile` in
 * Chrome's DevTools (Memory tab) to see which code allocates what, or split it with
 * `bench/profile/allocBreakdown.ts`. With BENCH_ALLOC_PROMOTED=1, only the objects that outlived
 * the young generation's collections (what the scavenger copied and moved to the old generation).
 */
class AllocationProfile {
  private readonly session = new Session();
  private marks = 0;

  constructor(private readonly dir: string) {
    this.session.connect();
  }

  private post(method: string, params?: object): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }

  async mark(): Promise<void> {
    this.marks++;
    if (this.marks === 1) {
      await this.post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: process.env.BENCH_ALLOC_PROMOTED !== '1',
      });
    } else if (this.marks === 2) {
      // With BENCH_ALLOC_PROMOTED, the garbage made since the last scavenge must not count as kept.
      if (process.env.BENCH_ALLOC_PROMOTED === '1') gc({ type: 'minor' });
      const { profile } = (await this.post('HeapProfiler.stopSampling')) as { profile: unknown };
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(join(this.dir, `alloc-${process.pid}.heapprofile`), JSON.stringify(profile));
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The body of an application child process: starts the application, then answers the bench's
 * requests over IPC: `baseline` / `heldMemory` (live memory, the latter once `calls` calls heard
 * prompt 1 to the end), `mark` (CPU time used so far and the latency percentiles since the last
 * mark), `final` (memory and leftovers once the load stopped). The parent sets BENCH_URL.
 *
 * @example
 * await runBenchApp(async ({ url, probe }) => startMyApp(url, probe));
 */
export async function runBenchApp(start: (context: BenchAppContext) => Promise<BenchApp>): Promise<void> {
  const url = process.env.BENCH_URL;
  if (!url) throw new Error('BENCH_URL is not set: this process is started by bench/run.ts');
  const probe = new LatencyProbe();
  const allocations = process.env.BENCH_ALLOC_PROFILE
    ? new AllocationProfile(process.env.BENCH_ALLOC_PROFILE)
    : undefined;
  const app = await start({
    url,
    username: process.env.BENCH_USERNAME ?? 'bench',
    password: process.env.BENCH_PASSWORD ?? 'bench',
    probe,
  });
  serveParent(
    {
      baseline: () => {
        const memory = liveMemory();
        const snapshots = process.env.BENCH_HEAP_SNAPSHOT;
        if (snapshots) {
          mkdirSync(snapshots, { recursive: true });
          writeHeapSnapshot(join(snapshots, `idle-${process.pid}.heapsnapshot`));
        }
        return memory;
      },
      heldMemory: async (args: { calls: number; timeoutMs: number }) => {
        const deadline = performance.now() + args.timeoutMs;
        while (probe.prompt1Finished < args.calls) {
          if (performance.now() > deadline)
            throw new Error(
              `only ${probe.prompt1Finished} of ${args.calls} calls reached the digit prompt in ${args.timeoutMs} ms`,
            );
          await sleep(10);
        }
        // Let the last events' work (requests in flight, state changes) settle before weighing.
        await sleep(200);
        const memory = liveMemory();
        // BENCH_HEAP_SNAPSHOT=<dir>: what the held calls are made of (open it in Chrome's DevTools).
        const snapshots = process.env.BENCH_HEAP_SNAPSHOT;
        if (snapshots) writeHeapSnapshot(join(snapshots, `held-${args.calls}-${process.pid}.heapsnapshot`));
        return { ...memory, activeCalls: app.activeCalls() };
      },
      mark: async () => {
        await allocations?.mark();
        // BENCH_TIMELINE=<dir>: the window's events, requests and replies (bench/profile/callTimeline.ts).
        const timelines = process.env.BENCH_TIMELINE;
        if (timelines && probe.timeline === undefined) probe.timeline = [];
        else if (timelines && probe.timeline) {
          mkdirSync(timelines, { recursive: true });
          const app = basename(process.argv[1] ?? 'app').replace(/\.[mc]?[jt]s$/, '');
          writeFileSync(join(timelines, `${app}-${process.pid}.json`), JSON.stringify(probe.timeline));
          probe.timeline = undefined;
        }
        const sorted = probe.takeSamples().sort((a, b) => a - b);
        return {
          at: performance.now(),
          // The monotonic clock in µs, as CPU profiles time their samples (bench/profile/cpuBreakdown.ts).
          monotonicUs: Number(process.hrtime.bigint() / 1000n),
          cpu: process.cpuUsage(),
          threads: threadCpu(),
          latency: {
            count: sorted.length,
            p50: quantile(sorted, 0.5),
            p99: quantile(sorted, 0.99),
            max: sorted.at(-1) ?? Number.NaN,
          },
        };
      },
      final: async () => {
        await sleep(200);
        return {
          ...liveMemory(),
          activeCalls: app.activeCalls(),
          leftovers: { ...app.leftovers(), probeCalls: probe.tracked },
          errors: app.errors().slice(0, 20),
          errorCount: app.errors().length,
        };
      },
    },
    { pid: process.pid },
    () => app.close(),
  );
}
