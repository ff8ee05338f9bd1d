/**
 * The REST request path alone: the same requests sent (a) through ringflow's `createRestClient`,
 * (b) through a bare undici `Pool.request` with a prebuilt path and an authorization header (as
 * the bench's bare application does), and (c) through undici's `Pool.dispatch` with a minimal
 * handler, the floor of any client on undici; against the simulator's wire server. Each client
 * runs in its own child process, so the figures are the client side's CPU only (the server runs
 * in this, the parent, process).
 *
 *   npx tsx bench/rest-requests.ts                       # 4,000 requests per run, 5 runs per client
 *   npx tsx bench/rest-requests.ts --requests 8000 --runs 7 --concurrency 100
 *   npx tsx bench/rest-requests.ts --profile /tmp/prof   # node --cpu-prof for the client children
 *
 * Per channel the clients send the IVR's sequence: answer, play (with a playbackId), stop the
 * playback, hang up; `--concurrency` channels are worked at once over a pool of 10 connections.
 * CPU per request is `process.cpuUsage()` (user + system) of the client process across a run.
 * Allocation per request is measured in separate children whose young generation is large
 * enough (`--min-semi-space-size`) that no garbage collection runs during the pass: the heap's
 * growth is then exactly what was allocated. Runs of the two clients alternate, so load from
 * other processes on the machine hits both alike.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { createRestClient, systemClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { Pool } from 'undici';
import { WebSocket } from 'ws';
import { median, spread } from './apps/stats.ts';
import { ChildLink } from './process/ChildLink.ts';
import { serveParent } from './process/serveParent.ts';

const APP = 'rest-bench';
const USER = { username: 'bench', password: 'bench' } as const;
const SOUND = 'rest-bench-prompt';
const MEDIA = `sound:${SOUND}`;
const CONNECTIONS = 10;
const REQUESTS_PER_CHANNEL = 4;

type Impl = 'ringflow' | 'bare' | 'floor';

const IMPL_TITLES: Readonly<Record<Impl, string>> = {
  ringflow: 'ringflow createRestClient',
  bare: 'bare undici Pool.request',
  floor: 'floor: undici Pool.dispatch',
};

/** What one measured pass of a client child reports. */
interface PassResult {
  readonly requests: number;
  readonly cpuMicros: number;
  readonly wallMs: number;
  readonly gcCount: number;
  readonly gcMs: number;
  /** Heap growth across the pass (after a full GC before it, none after). */
  readonly heapBytes: number;
  readonly failures: readonly string[];
}

interface PassArgs {
  readonly ids: readonly string[];
  readonly concurrency: number;
  /** Collect garbage first, so the heap growth is the pass's own allocation. */
  readonly collectFirst: boolean;
}

// ---------------------------------------------------------------------------------------------
// Client side (a child process): one implementation, passes on request of the parent.

/** Sends the four requests of one channel; rejects on the first failure. */
type ChannelWork = (id: string) => Promise<void>;

function ringflowWork(url: string): { work: ChannelWork; close: () => Promise<void> } {
  const client = createRestClient({
    url,
    ...USER,
    segment: 'asterisk',
    connections: CONNECTIONS,
    clock: systemClock,
  });
  return {
    async work(id) {
      const channel = client.channel(id);
      await channel.answer();
      await channel.play({ media: MEDIA, playbackId: `${id}-p` });
      await client.playback(`${id}-p`).stop();
      await channel.hangup({ reason: 'normal' });
    },
    close: () => client.close(),
  };
}

function bareWork(url: string): { work: ChannelWork; close: () => Promise<void> } {
  const root = new URL(url);
  const basePath = root.pathname.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString('base64')}`;
  const pool = new Pool(root.origin, { connections: CONNECTIONS, headersTimeout: 0, bodyTimeout: 0 });
  const media = encodeURIComponent(MEDIA);
  const send = async (method: 'POST' | 'DELETE', path: string): Promise<void> => {
    const res = await pool.request({ method, path: `${basePath}${path}`, headers: { authorization } });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  };
  return {
    async work(id) {
      await send('POST', `/channels/${id}/answer`);
      await send('POST', `/channels/${id}/play?media=${media}&playbackId=${id}-p`);
      await send('DELETE', `/playbacks/${id}-p`);
      await send('DELETE', `/channels/${id}?reason=normal`);
    },
    close: () => pool.close(),
  };
}

/**
 * The floor: undici's dispatcher interface with a minimal handler (status, body bytes, nothing
 * else), which is what ringflow's transport is built on. No client does less per request.
 */
function floorWork(url: string): { work: ChannelWork; close: () => Promise<void> } {
  const root = new URL(url);
  const basePath = root.pathname.replace(/\/+$/, '');
  const headers = {
    authorization: `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString('base64')}`,
  };
  const pool = new Pool(root.origin, { connections: CONNECTIONS, headersTimeout: 0, bodyTimeout: 0 });
  const media = encodeURIComponent(MEDIA);
  const send = (method: 'POST' | 'DELETE', path: string): Promise<void> =>
    new Promise((resolve, reject) => {
      let status = 0;
      const chunks: Buffer[] = [];
      pool.dispatch(
        { method, path: `${basePath}${path}`, headers },
        {
          onRequestStart() {},
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData(_controller, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            if (status < 300) resolve();
            else reject(new Error(`${method} ${path}: ${status} ${Buffer.concat(chunks).toString()}`));
          },
          onResponseError(_controller, error) {
            reject(error);
          },
        },
      );
    });
  return {
    async work(id) {
      await send('POST', `/channels/${id}/answer`);
      await send('POST', `/channels/${id}/play?media=${media}&playbackId=${id}-p`);
      await send('DELETE', `/playbacks/${id}-p`);
      await send('DELETE', `/channels/${id}?reason=normal`);
    },
    close: () => pool.close(),
  };
}

async function runClient(impl: Impl, url: string): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const { work, close } = { ringflow: ringflowWork, bare: bareWork, floor: floorWork }[impl](url);
  // GC entries arrive asynchronously: they are kept with their start time and counted per pass.
  const collections: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      collections.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });

  const pass = async ({ ids, concurrency, collectFirst }: PassArgs): Promise<PassResult> => {
    if (collectFirst) {
      gc();
      gc();
    }
    const failures: string[] = [];
    const heapBefore = process.memoryUsage().heapUsed;
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        try {
          await work(id);
        } catch (error) {
          if (failures.length < 5) failures.push(`${id}: ${String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - wallBefore;
    const heapBytes = process.memoryUsage().heapUsed - heapBefore;
    const wallAfter = performance.now();
    // Let the pass's GC entries arrive, then keep those that started inside it.
    await new Promise<void>((resolve) => setTimeout(resolve, 50));
    const inPass = collections.filter((c) => c.start >= wallBefore && c.start <= wallAfter);
    collections.length = 0;
    return {
      requests: ids.length * REQUESTS_PER_CHANNEL,
      cpuMicros: cpu.user + cpu.system,
      wallMs,
      gcCount: inPass.length,
      gcMs: inPass.reduce((sum, c) => sum + c.duration, 0),
      heapBytes,
      failures,
    };
  };

  serveParent({ pass: (args: PassArgs) => pass(args) }, { impl }, async () => {
    observer.disconnect();
    await close();
  });
}

// ---------------------------------------------------------------------------------------------
// Server side (the parent process): the simulator, its channels, and the report.

interface BenchOptions {
  readonly requests: number;
  readonly runs: number;
  readonly concurrency: number;
  readonly profile: string | undefined;
}

function readOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '4000' },
      runs: { type: 'string', default: '5' },
      concurrency: { type: 'string', default: '50' },
      profile: { type: 'string' },
    },
  });
  const whole = (name: string, text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a whole number > 0, got ${text}`);
    return n;
  };
  return {
    requests: whole('requests', values.requests),
    runs: whole('runs', values.runs),
    concurrency: whole('concurrency', values.concurrency),
    profile: values.profile,
  };
}

async function runParent(): Promise<void> {
  const options = readOptions();
  const sim = createSimulator({
    clock: systemClock,
    // Long enough that every playback is still playing when the client stops it.
    sounds: { extraSounds: [{ id: SOUND, durationMs: 3_600_000 }] },
  });
  const wire = await startWireServer(sim, { users: [USER], clock: systemClock });
  // Calls enter the application directly, which needs the application's event connection.
  const events = new WebSocket(`${wire.url.replace(/^http/, 'ws')}/events?app=${APP}`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString('base64')}`,
    },
    perMessageDeflate: false,
  });
  events.on('message', () => {});
  await new Promise<void>((resolve, reject) => {
    events.once('open', () => resolve());
    events.once('error', reject);
  });

  const channelsPerPass = Math.ceil(options.requests / REQUESTS_PER_CHANNEL);
  let serial = 0;
  const placeCalls = (n: number): string[] =>
    Array.from({ length: n }, () => sim.driver.placeCall({ app: APP, channelId: `rb-${++serial}` }));

  const impls: readonly Impl[] = ['ringflow', 'bare', 'floor'];
  const start = (impl: Impl, purpose: 'cpu' | 'alloc'): Promise<ChildLink> =>
    ChildLink.start(new URL(import.meta.url), `${impl}-${purpose}`, {
      env: { REST_BENCH_ROLE: 'client', REST_BENCH_IMPL: impl, REST_BENCH_URL: wire.url },
      nodeFlags: [
        ...(purpose === 'alloc' ? ['--min-semi-space-size=256', '--max-semi-space-size=256'] : []),
        ...(options.profile && purpose === 'cpu'
          ? ['--cpu-prof', `--cpu-prof-dir=${options.profile}`, `--cpu-prof-name=${impl}.cpuprofile`]
          : []),
      ],
    });
  const pass = (link: ChildLink, collectFirst: boolean, channels = channelsPerPass) =>
    link.request<PassResult>('pass', {
      ids: placeCalls(channels),
      concurrency: options.concurrency,
      collectFirst,
    } satisfies PassArgs);

  const cpu: Record<Impl, PassResult[]> = { ringflow: [], bare: [], floor: [] };
  const alloc: Record<Impl, PassResult[]> = { ringflow: [], bare: [], floor: [] };
  const failures: string[] = [];
  const keep = (impl: Impl, into: Record<Impl, PassResult[]>, result: PassResult) => {
    into[impl].push(result);
    failures.push(...result.failures.map((f) => `${impl}: ${f}`));
  };

  const cpuLinks = await Promise.all(impls.map((impl) => start(impl, 'cpu')));
  for (const link of cpuLinks) await pass(link, false); // warm-up: JIT, connections
  for (let run = 0; run < options.runs; run++) {
    for (const [i, link] of cpuLinks.entries()) keep(impls[i] as Impl, cpu, await pass(link, true));
  }
  await Promise.all(cpuLinks.map((link) => link.stop()));

  const allocLinks = await Promise.all(impls.map((impl) => start(impl, 'alloc')));
  for (const link of allocLinks) await pass(link, false);
  for (let run = 0; run < options.runs; run++) {
    // Fewer requests, so the pass fits in the young generation without a collection.
    for (const [i, link] of allocLinks.entries())
      keep(impls[i] as Impl, alloc, await pass(link, true, Math.min(channelsPerPass, 500)));
  }
  await Promise.all(allocLinks.map((link) => link.stop()));
  events.close();
  await wire.close();
  sim.close();

  const perRequest = (r: PassResult) => r.cpuMicros / r.requests;
  const cleanAlloc = (impl: Impl) => alloc[impl].filter((r) => r.gcCount === 0);
  const allocPerRequest = (r: PassResult) => r.heapBytes / r.requests / 1024;
  /** Per metric: the samples of each client, and how many digits to show. */
  const metrics: [string, (impl: Impl) => number[], number][] = [
    ['CPU per request (µs)', (impl) => cpu[impl].map(perRequest), 1],
    ['requests/s (wall)', (impl) => cpu[impl].map((r) => (r.requests / r.wallMs) * 1000), 0],
    ['GC runs per 1,000 requests', (impl) => cpu[impl].map((r) => (r.gcCount / r.requests) * 1000), 2],
    ['GC time per request (µs)', (impl) => cpu[impl].map((r) => (r.gcMs * 1000) / r.requests), 2],
    // Passes in which a collection ran anyway are left out: their heap growth is not the allocation.
    ['allocated per request (KiB)', (impl) => cleanAlloc(impl).map(allocPerRequest), 2],
  ];
  const cell = (xs: number[], digits: number) => (xs.length > 0 ? spread(xs, digits) : 'n/a');
  const ratio = (name: string, a: number[], b: number[]) =>
    name.startsWith('CPU') || name.startsWith('allocated')
      ? a.length && b.length
        ? `${(median(a) / median(b)).toFixed(2)}x`
        : '-'
      : '';
  const lines = [
    `REST request path: ${options.requests} requests per run (${channelsPerPass} channels × answer, play, stop, hangup), ${options.concurrency} channels at once, ${CONNECTIONS} connections, ${options.runs} runs per client; medians (min–max)`,
    '',
    `| metric | ${impls.map((impl) => IMPL_TITLES[impl]).join(' | ')} | ringflow / bare | ringflow / floor |`,
    `|---|${impls.map(() => '---:').join('|')}|---:|---:|`,
    ...metrics.map(([name, samples, digits]) => {
      const cells = impls.map((impl) => cell(samples(impl), digits));
      const own = samples('ringflow');
      return `| ${name} | ${cells.join(' | ')} | ${ratio(name, own, samples('bare'))} | ${ratio(name, own, samples('floor'))} |`;
    }),
    ...impls
      .filter((impl) => cleanAlloc(impl).length < alloc[impl].length)
      .map(
        (impl) =>
          `(${impl}: ${alloc[impl].length - cleanAlloc(impl).length} allocation passes had a GC and were left out)`,
      ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (failures.length > 0) {
    process.stdout.write(
      `\nFailed requests (first ${Math.min(failures.length, 10)}):\n${failures.slice(0, 10).join('\n')}\n`,
    );
    process.exitCode = 1;
  }
}

if (process.env.REST_BENCH_ROLE === 'client') {
  await runClient(process.env.REST_BENCH_IMPL as Impl, process.env.REST_BENCH_URL ?? '');
} else {
  await runParent();
}
