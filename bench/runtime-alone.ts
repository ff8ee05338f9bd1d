/**
 * What ringflow's runtime costs per call on the real server's event mix, without sockets or a
 * second process: `createApplication` running the bench flow (`bench/flows/bench-ivr.yaml`),
 * fed the 22 events of the recorded real call (`test/simulator/fixtures/bench-ivr-call.jsonl`,
 * in its order, as JSON text) by a scripted server that answers the flow's 4 requests on the
 * next turn of the event loop. The figure covers the client's event stream and REST path above
 * the transport, the runtime (routing, session, requests, timers) and the flow's XState actor;
 * `bench/flow-machine.ts` measures the actor alone, so the difference is what the runtime adds.
 * Low noise (one process, no sockets): the tool for A/B runs of runtime changes.
 *
 *   npx tsx bench/runtime-alone.ts [--calls 20000] [--concurrency 100] [--runs 5] [--copies N]
 *     [--alloc-profile FILE] [--promoted-profile FILE] [--held N [--held-profile FILE]]
 *   (CPU per call, and the part of it on helper threads: V8's garbage collection and compiler)
 *
 * Reported: CPU per call (user + system) of each run, and the median; the run checks that every
 * call completed (its flow's outcome `completed`).
 *
 * `--copies N` sends each of the 17 events of a call that no state of the bench flow handles
 * (every one but StasisStart, the two PlaybackFinished, ChannelDtmfReceived and StasisEnd) N more
 * times, right after itself, as new text: the extra CPU per call divided by 17 N is what one such
 * event costs from its JSON text to its drop. The bench also reports what `JSON.parse` alone of
 * the same texts costs (the bare loop's parse-and-drop), for comparison.
 *
 * `--alloc-profile FILE` writes a sampling allocation profile of the last run (every allocation,
 * collected or not; `bench/profile/allocBreakdown.ts FILE --calls N` splits it per part and site);
 * `--promoted-profile FILE` the same of only the objects that outlived the young generation's
 * collections (copied by the scavenger, then moved to the old generation): what costs the
 * collector work per call, where short-lived garbage costs it next to nothing.
 * `--held N` then weighs what a live call keeps: N calls held at the digit prompt (prompt 1 ended,
 * the key not yet sent), the live heap after full collections against before them, per call;
 * then the calls are let go and what they left behind is weighed too. `--held-profile FILE`: where
 * the objects the held calls keep were allocated (a sampling profile of the live objects only).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { threadCpu } from './apps/threadCpu.ts';
import type {
  EventTransport,
  EventTransportHandlers,
  RestTransport,
  TransportExchange,
  TransportRequest,
} from '@ringflow/client';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import { createApplication } from '@ringflow/runtime';
import { measureHeap, scavenge } from './apps/measureHeap.ts';
import { fmt, spread } from './apps/stats.ts';
import { IVR_APP } from './ivr/ivrWorkload.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '100' },
    runs: { type: 'string', default: '5' },
    copies: { type: 'string', default: '0' },
    'alloc-profile': { type: 'string' },
    'promoted-profile': { type: 'string' },
    held: { type: 'string', default: '0' },
    'held-profile': { type: 'string' },
  },
});
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
const RUNS = Number(values.runs);
const COPIES = Number(values.copies);
if (!Number.isInteger(COPIES) || COPIES < 0) throw new Error(`--copies ${values.copies}: expected 0 or more`);
const HELD = Number(values.held);
if (!Number.isInteger(HELD) || HELD < 0) throw new Error(`--held ${values.held}: expected 0 or more`);
/** The event types of the recorded call that some state of the bench flow handles. */
const HANDLED = new Set(['StasisStart', 'PlaybackFinished', 'ChannelDtmfReceived', 'StasisEnd']);

const TRACE = fileURLToPath(new URL('../test/simulator/fixtures/bench-ivr-call.jsonl', import.meta.url));
const ASTERISK_ID = '02:fc:00:00:00:01';

/** The recorded call's events as JSON text, its ids made placeholders (@A@, @B@, @P1@, @P2@). */
function traceEvents(): string[] {
  const events: string[] = [];
  for (const line of readFileSync(TRACE, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { event?: unknown };
    if (!entry.event) continue;
    events.push(
      JSON.stringify(entry.event)
        .replaceAll('pb1-trace-1795868466612-a', '@P1@')
        .replaceAll('pb2-trace-1795868466612-a', '@P2@')
        .replaceAll('trace-1795868466612-a', '@A@')
        .replaceAll('trace-1795868466612-b', '@B@')
        .replaceAll('"ivr-trace"', JSON.stringify(IVR_APP)),
    );
  }
  if (events.length !== 22) throw new Error(`${TRACE}: expected 22 events, found ${events.length}`);
  return events;
}

/** One call's ids and where it is in the recorded exchange. */
interface Call {
  readonly a: string;
  readonly b: string;
  p1?: string;
  p2?: string;
  plays: number;
}

/**
 * The scripted server: events of the recording go out in the recorded order, the ones that
 * follow a request once the application made it (answer: its reply; first play: reply, then
 * the prompt's start and end and the caller's key; second play: its start, the reply, its end;
 * hangup: reply, then the 8 events of the hang-up).
 */
class ScriptedServer {
  private handlers: EventTransportHandlers | undefined;
  private readonly calls = new Map<string, Call>();
  private readonly events = traceEvents();
  private readonly types = this.events.map((text) => (JSON.parse(text) as { type: string }).type);
  private next = 0;
  completed = 0;
  /** When set, calls wait at the digit prompt (prompt 1 ended, the key not sent) until `release`. */
  holding = false;
  readonly held: Call[] = [];

  readonly eventTransport: EventTransport = {
    connect: (_request, handlers) => {
      this.handlers = handlers;
      setImmediate(() => handlers.open());
      const closed = () => setImmediate(() => handlers.closed(1000, ''));
      return { ping: () => setImmediate(() => handlers.pong()), close: closed, terminate: closed };
    },
  };

  readonly restTransport: RestTransport = {
    send: (request) =>
      new Promise((resolve, reject) =>
        this.dispatch(request, { dispatched: () => {}, replied: resolve, failed: reject }),
      ),
    dispatch: (request, exchange) => {
      this.dispatch(request, exchange);
      return { cancel: () => {} };
    },
  };

  /** Places a call: the events up to its StasisStart. */
  place(): void {
    const n = this.next++;
    const call: Call = { a: `call-${n}-a`, b: `call-${n}-b`, plays: 0 };
    this.calls.set(call.a, call);
    this.send(call, 0, 9);
  }

  private send(call: Call, from: number, to: number): void {
    const handlers = this.handlers!;
    for (let i = from; i < to; i++) {
      let text = this.events[i]!.replaceAll('@A@', call.a).replaceAll('@B@', call.b);
      if (call.p1) text = text.replaceAll('@P1@', call.p1);
      if (call.p2) text = text.replaceAll('@P2@', call.p2);
      handlers.message(text);
      if (COPIES > 0 && !HANDLED.has(this.types[i]!)) for (let c = 0; c < COPIES; c++) handlers.message(text);
    }
  }

  private dispatch(request: TransportRequest, exchange: TransportExchange): void {
    exchange.dispatched();
    const reply = (status: number, body?: unknown, then?: () => void) =>
      setImmediate(() => {
        exchange.replied(
          body === undefined
            ? { status, headers: {} }
            : { status, headers: { 'content-type': 'application/json' }, body },
        );
        then?.();
      });
    const channel = /\/channels\/([^/?]+)(\/[a-z]+)?$/.exec(request.path);
    const call = channel ? this.calls.get(decodeURIComponent(channel[1]!)) : undefined;
    if (!call) {
      reply(200, this.startupReply(request));
      return;
    }
    const action = channel![2];
    if (action === '/answer' && request.method === 'POST') reply(204);
    else if (action === '/play' && request.method === 'POST') {
      const id = request.query.find(([k]) => k === 'playbackId')?.[1] ?? '';
      const playback = {
        id,
        media_uri: request.query.find(([k]) => k === 'media')?.[1],
        target_uri: `channel:${call.a}`,
        state: 'queued',
        language: 'en',
      };
      if (call.plays++ === 0) {
        call.p1 = id;
        reply(201, playback, () =>
          setImmediate(() => {
            if (!this.holding) return this.send(call, 9, 12);
            this.send(call, 9, 11);
            this.held.push(call);
          }),
        );
      } else {
        call.p2 = id;
        setImmediate(() => {
          this.send(call, 12, 13);
          reply(201, playback, () => setImmediate(() => this.send(call, 13, 14)));
        });
      }
    } else if (!action && request.method === 'DELETE') {
      reply(204, undefined, () =>
        setImmediate(() => {
          this.send(call, 14, 22);
          this.calls.delete(call.a);
        }),
      );
    } else reply(404, { message: `unexpected ${request.method} ${request.path}` });
  }

  /** Sends the key of every held call: they go on to their end. */
  release(): void {
    this.holding = false;
    for (const call of this.held.splice(0)) this.send(call, 11, 12);
  }

  private startupReply(request: TransportRequest): unknown {
    if (request.path.endsWith('/asterisk/info'))
      return { system: { entity_id: ASTERISK_ID, version: '22.0.0' }, config: {}, status: {}, build: {} };
    if (request.path.includes('/applications'))
      return {
        name: IVR_APP,
        channel_ids: [],
        bridge_ids: [],
        endpoint_ids: [],
        device_names: [],
        events_allowed: [],
        events_disallowed: [],
      };
    return [];
  }
}

/** The application running the bench flow on a scripted server, and the count of its ended calls. */
async function startBench() {
  const server = new ScriptedServer();
  const machine = createFlowCallMachine(
    await loadFlowFile(fileURLToPath(new URL('./flows/bench-ivr.yaml', import.meta.url))),
  );
  const app = createApplication({
    servers: [
      {
        url: 'http://127.0.0.1:9/ari',
        username: 'bench',
        password: 'bench',
        restTransport: server.restTransport,
        eventTransport: server.eventTransport,
      },
    ],
    apps: [IVR_APP],
    call: machine,
    logger: { level: 'error' },
  });
  const counts = { ended: 0, failed: 0, onEnded: () => {} };
  app.calls$.subscribe((session) => {
    void session.done.then((outcome) => {
      if (outcome !== 'completed') counts.failed++;
      counts.ended++;
      counts.onEnded();
    });
  });
  await app.start();
  return { app, server, counts };
}

/** Time the main thread spent in garbage-collection pauses (scavenges, a full collection's final part). */
const gcPauses = { ms: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.ms += entry.duration;
}).observe({ entryTypes: ['gc'] });

async function run(
  calls: number,
  profile?: { readonly file: string; readonly sampled: Sampled },
): Promise<{ ms: number; helperMs: number; gcPauseMs: number }> {
  const { app, server, counts } = await startBench();
  const all = new Promise<void>((resolve) => {
    counts.onEnded = () => {
      if (counts.ended === calls) resolve();
      else if (counts.ended + CONCURRENCY <= calls) server.place();
    };
  });
  const allocations = profile ? await AllocationSampling.start(profile.sampled) : undefined;
  const start = process.cpuUsage();
  const threadsStart = threadCpu();
  const pausesStart = gcPauses.ms;
  for (let i = 0; i < Math.min(CONCURRENCY, calls); i++) server.place();
  await all;
  const used = process.cpuUsage(start);
  const threadsEnd = threadCpu();
  // Entries are delivered on a later turn: let the last ones in.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const gcPauseMs = (gcPauses.ms - pausesStart) / calls;
  if (allocations && profile) await allocations.stop(profile.file);
  await app.stop();
  if (counts.failed > 0) throw new Error(`${counts.failed} of ${calls} calls did not complete`);
  return {
    ms: (used.user + used.system) / 1000 / calls,
    helperMs: threadsStart && threadsEnd ? (threadsEnd.otherMs - threadsStart.otherMs) / calls : Number.NaN,
    gcPauseMs,
  };
}

/** The live heap a call keeps while it waits at the digit prompt, and what it leaves once ended. */
async function weighHeld(
  calls: number,
  profile?: string,
): Promise<{ perLiveCall: number; perEndedCall: number }> {
  const { app, server, counts } = await startBench();
  const turn = () => new Promise((resolve) => setTimeout(resolve, 20));
  const before = measureHeap();
  const allocations = profile ? await AllocationSampling.start('live') : undefined;
  server.holding = true;
  for (let i = 0; i < calls; i++) server.place();
  while (server.held.length < calls) await turn();
  await turn();
  const live = measureHeap();
  if (allocations && profile) await allocations.stop(profile);
  const ended = new Promise<void>((resolve) => {
    counts.onEnded = () => {
      if (counts.ended === calls) resolve();
    };
  });
  server.release();
  await ended;
  await turn();
  const after = measureHeap();
  await app.stop();
  if (counts.failed > 0) throw new Error(`${counts.failed} of ${calls} held calls did not complete`);
  return { perLiveCall: (live - before) / calls, perEndedCall: (after - before) / calls };
}

/**
 * V8's sampling heap profiler over a stretch of the run. Which objects count: `all` (every one
 * allocated, collected or not: what is made), `promoted` (those that outlived the young
 * generation's collections: what the scavenger copied and moved to the old generation), `live`
 * (those still live when it stops: what is kept).
 */
type Sampled = 'all' | 'promoted' | 'live';
class AllocationSampling {
  private constructor(
    private readonly session: Session,
    private readonly sampled: Sampled,
  ) {}

  static async start(sampled: Sampled): Promise<AllocationSampling> {
    const session = new Session();
    session.connect();
    const sampling = new AllocationSampling(session, sampled);
    await sampling.post('HeapProfiler.startSampling', {
      samplingInterval: sampled === 'live' ? 512 : 4096,
      includeObjectsCollectedByMajorGC: sampled !== 'live',
      includeObjectsCollectedByMinorGC: sampled === 'all',
    });
    return sampling;
  }

  async stop(file: string): Promise<void> {
    // The garbage made since the last scavenge is still in the young generation: a scavenge now
    // frees it, so only what outlived the collections stays in a `promoted` profile.
    if (this.sampled === 'promoted') scavenge();
    const { profile } = (await this.post('HeapProfiler.stopSampling')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    this.session.disconnect();
  }

  private post(method: string, params?: object): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }
}

/** The allocation profile the last run writes, if asked for. */
function lastRunProfile(): { file: string; sampled: Sampled } | undefined {
  if (values['alloc-profile'] && values['promoted-profile'])
    throw new Error('--alloc-profile and --promoted-profile: one at a time (both profile the last run)');
  if (values['alloc-profile']) return { file: values['alloc-profile'], sampled: 'all' };
  if (values['promoted-profile']) return { file: values['promoted-profile'], sampled: 'promoted' };
  return undefined;
}

await run(Math.min(2000, CALLS)); // warm-up
const results: number[] = [];
const helpers: number[] = [];
const pauses: number[] = [];
for (let r = 1; r <= RUNS; r++) {
  const { ms, helperMs, gcPauseMs } = await run(CALLS, r === RUNS ? lastRunProfile() : undefined);
  results.push(ms);
  helpers.push(helperMs);
  pauses.push(gcPauseMs);
  console.log(
    `  run ${r} runtime + flow  cpu ${fmt(ms, 4)} ms/call (helper threads: garbage collection, compiler ${fmt(helperMs, 4)}; ` +
      `main thread's GC pauses ${fmt(gcPauseMs, 4)})`,
  );
}
console.log(
  `median (min–max): ${spread(results, 4)} ms/call (helper threads ${spread(helpers, 4)}, GC pauses ${spread(pauses, 4)}), ${CALLS} calls, ${CONCURRENCY} at once` +
    (COPIES > 0 ? `, ${COPIES} more cop${COPIES === 1 ? 'y' : 'ies'} of each unhandled event` : ''),
);
console.log(`JSON.parse alone of a call's 17 unhandled events: ${fmt(parseAlone(), 4)} ms/call`);
if (lastRunProfile()) console.log(`allocation profile of run ${RUNS}: ${lastRunProfile()?.file}`);
if (HELD > 0) {
  const { perLiveCall, perEndedCall } = await weighHeld(HELD, values['held-profile']);
  console.log(
    `${HELD} calls held at the digit prompt: ${fmt(perLiveCall / 1024, 2)} KiB of live heap per call; ` +
      `after they ended ${fmt(perEndedCall, 0)} B per call`,
  );
}

/** CPU per call of parsing the texts of one call's unhandled events, as the bare loop does. */
function parseAlone(): number {
  const texts = traceEvents()
    .filter((text) => !HANDLED.has((JSON.parse(text) as { type: string }).type))
    .map((text) => text.replaceAll('@A@', 'call-1-a').replaceAll('@B@', 'call-1-b'));
  let types = 0;
  const round = (n: number) => {
    for (let i = 0; i < n; i++)
      for (const text of texts) if ((JSON.parse(text) as { type: string }).type) types++;
  };
  round(2000);
  const start = process.cpuUsage();
  round(CALLS);
  const used = process.cpuUsage(start);
  if (types === 0) throw new Error('nothing parsed');
  return (used.user + used.system) / 1000 / CALLS;
}
