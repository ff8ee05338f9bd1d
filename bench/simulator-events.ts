/**
 * How fast the simulator delivers events over the wire, and how much memory a live channel costs.
 *
 *   npx tsx bench/simulator-events.ts [--channels 500] [--clients 4] [--runs 5] [--clock virtual|real]
 *                                     [--subscribe-all] [--concurrency 32]
 *
 * Each run starts a fresh simulator behind the wire transport on a loopback port, opens
 * `--clients` event WebSockets (apps bench-0..bench-N), then drives `--channels` calls through
 * originate -> (far end answers) -> answer -> play -> (playback ends) -> hangup, spread over the
 * apps, with at most `--concurrency` REST requests in flight. It reports events received per
 * second (all sockets together, wall time from the first originate to the last ChannelDestroyed)
 * and heap growth per live channel (after GC, all channels up, minus the baseline before the
 * first originate). With `--clock virtual` (the default) simulated time is advanced by the bench,
 * so the figures measure the software, not the call durations; `--clock real` runs on wall time.
 * Prints the median and the spread (min..max) of `--runs` runs. Not part of `npm test`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseArgs } from 'node:util';
import { type Clock, VirtualClock, systemClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { Pool } from 'undici';
import { WebSocket } from 'ws';

const { values } = parseArgs({
  options: {
    channels: { type: 'string', default: '500' },
    clients: { type: 'string', default: '4' },
    runs: { type: 'string', default: '5' },
    clock: { type: 'string', default: 'virtual' },
    concurrency: { type: 'string', default: '32' },
    'subscribe-all': { type: 'boolean', default: false },
  },
});
const CHANNELS = Number(values.channels);
const CLIENTS = Number(values.clients);
const RUNS = Number(values.runs);
const CONCURRENCY = Number(values.concurrency);
const SUBSCRIBE_ALL = values['subscribe-all'];
const VIRTUAL = values.clock !== 'real';
/** Far-end answer delay and media: short on the real clock so a run takes seconds, not minutes. */
const ANSWER_AFTER_MS = VIRTUAL ? 1000 : 20;
const MEDIA = 'sound:beep';

// Heap figures need a garbage collection before each reading; enable gc() without a node flag.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

interface RunResult {
  events: number;
  requests: number;
  seconds: number;
  eventsPerSecond: number;
  bytesPerChannel: number;
}

/** An event socket that counts frames and lets the bench wait for a number of a given type. */
class CountingClient {
  total = 0;
  private readonly byType = new Map<string, number>();
  private waiters: { type: string; count: number; resolve: () => void }[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.total++;
      const type = (JSON.parse(String(data)) as { type: string }).type;
      this.byType.set(type, (this.byType.get(type) ?? 0) + 1);
      this.waiters = this.waiters.filter((w) => {
        if ((this.byType.get(w.type) ?? 0) < w.count) return true;
        w.resolve();
        return false;
      });
    });
  }

  count(type: string): number {
    return this.byType.get(type) ?? 0;
  }

  until(type: string, count: number): Promise<void> {
    if (this.count(type) >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ type, count, resolve }));
  }
}

async function runOnce(run: number): Promise<RunResult> {
  const clock: Clock = VIRTUAL ? new VirtualClock(Date.UTC(2026, 0, 1)) : systemClock;
  const sim = createSimulator({
    clock,
    answerOutboundAfterMs: ANSWER_AFTER_MS,
    // The phones the bench dials: a server has only the endpoints it is configured with.
    endpoints: Array.from({ length: CHANNELS }, (_, i) => `PJSIP/bench-${i}`),
  });
  const wire = await startWireServer(sim, { users: [{ username: 'bench', password: 'bench' }], clock });
  const http = new Pool(new URL(wire.url).origin, { connections: CONCURRENCY });
  const auth = `Basic ${Buffer.from('bench:bench').toString('base64')}`;

  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) => {
      const url = `${wire.url.replace(/^http/, 'ws')}/events?app=bench-${i}&subscribeAll=${SUBSCRIBE_ALL}`;
      const ws = new WebSocket(url, { headers: { Authorization: auth }, perMessageDeflate: false });
      return new Promise<CountingClient>((resolve, reject) => {
        const client = new CountingClient(ws);
        ws.once('open', () => resolve(client));
        ws.once('error', reject);
      });
    }),
  );

  let requests = 0;
  const call = async (method: 'POST' | 'DELETE', path: string): Promise<void> => {
    requests++;
    const res = await http.request({ method, path: `/ari${path}`, headers: { authorization: auth } });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  };
  /** Runs `task` for every channel index with at most CONCURRENCY in flight. */
  const forEachChannel = async (task: (i: number) => Promise<void>): Promise<void> => {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, CHANNELS) }, async () => {
        while (next < CHANNELS) await task(next++);
      }),
    );
  };
  /**
   * Waits until every socket saw `type` for each channel it hears about: its own app's share, or
   * every channel with subscribeAll (except StasisStart, which only the channel's own app gets).
   * Gives up with the counts after 60 s of wall time rather than hang on a lost event.
   */
  const allSaw = async (type: string) => {
    const expected = (i: number) =>
      SUBSCRIBE_ALL && type !== 'StasisStart' ? CHANNELS : Math.ceil((CHANNELS - i) / CLIENTS);
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      watchdog = setTimeout(() => {
        const counts = clients.map((c, i) => `bench-${i}: ${c.count(type)}/${expected(i)}`).join(', ');
        reject(new Error(`gave up waiting for ${type} events (${counts})`));
      }, 60_000);
    });
    try {
      await Promise.race([Promise.all(clients.map((c, i) => c.until(type, expected(i)))), timeout]);
    } finally {
      clearTimeout(watchdog);
    }
  };
  /** Lets simulated time pass (virtual clock), or simply waits for the events (real clock). */
  const passTime = async (ms: number, waitFor: Promise<unknown>): Promise<void> => {
    if (clock instanceof VirtualClock) await clock.advance(ms);
    await waitFor;
  };

  const baseline = heapUsed();
  const phases: string[] = [];
  let mark = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    phases.push(`${name} ${(now - mark).toFixed(0)} ms`);
    mark = now;
  };
  const started = performance.now();
  await forEachChannel((i) =>
    call('POST', `/channels?endpoint=PJSIP/bench-${i}&app=bench-${i % CLIENTS}&channelId=bench-${run}-${i}`),
  );
  phase('originate');
  await passTime(ANSWER_AFTER_MS, allSaw('StasisStart'));
  phase('far ends answer');
  await forEachChannel((i) => call('POST', `/channels/bench-${run}-${i}/answer`));
  phase('answer');
  // Heap is read outside the timed phases: a full GC takes a while and is not the simulator's work.
  const measuring = performance.now();
  const bytesPerChannel = (heapUsed() - baseline) / CHANNELS;
  const gcTime = performance.now() - measuring;
  mark += gcTime;
  await forEachChannel((i) => call('POST', `/channels/bench-${run}-${i}/play?media=${MEDIA}`));
  phase('play');
  await passTime(10_000, allSaw('PlaybackFinished'));
  phase('playbacks end');
  await forEachChannel((i) => call('DELETE', `/channels/bench-${run}-${i}`));
  phase('hangup');
  await passTime(1000, allSaw('ChannelDestroyed'));
  phase('destroyed');
  const seconds = (performance.now() - started - gcTime) / 1000;
  if (process.env.BENCH_PHASES) process.stderr.write(`  phases: ${phases.join(', ')}\n`);
  const events = clients.reduce((n, c) => n + c.total, 0);

  for (const c of clients) c.ws.close();
  await http.close();
  await wire.close();
  sim.close();
  return { events, requests, seconds, eventsPerSecond: events / seconds, bytesPerChannel };
}

function summary(label: string, samples: number[], unit: string, digits = 0): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const f = (n: number) => n.toFixed(digits);
  return `${label.padEnd(26)} median ${f(median)} ${unit}  (min ${f(sorted[0]!)}, max ${f(sorted.at(-1)!)}, n=${sorted.length})`;
}

const results: RunResult[] = [];
// One warm-up run (JIT, first connections) that is not counted.
await runOnce(0);
for (let run = 1; run <= RUNS; run++) {
  const result = await runOnce(run);
  results.push(result);
  process.stderr.write(
    `run ${run}: ${result.events} events in ${result.seconds.toFixed(2)} s, ` +
      `${result.eventsPerSecond.toFixed(0)} events/s, ${(result.bytesPerChannel / 1024).toFixed(1)} KiB/channel\n`,
  );
}
console.log(
  `simulator over the wire: ${CHANNELS} channels, ${CLIENTS} event sockets${SUBSCRIBE_ALL ? ' (subscribeAll)' : ''}, ` +
    `${VIRTUAL ? 'virtual' : 'real'} clock, node ${process.version}`,
);
console.log(
  summary(
    'events delivered / s',
    results.map((r) => r.eventsPerSecond),
    'events/s',
  ),
);
console.log(
  summary(
    'REST requests / s',
    results.map((r) => r.requests / r.seconds),
    'requests/s',
  ),
);
console.log(
  summary(
    'events per run',
    results.map((r) => r.events),
    'events',
  ),
);
console.log(
  summary(
    'heap per live channel',
    results.map((r) => r.bytesPerChannel / 1024),
    'KiB',
    1,
  ),
);
