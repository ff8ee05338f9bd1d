/**
 * What the compiled flow alone costs per call, without sockets, a server or the runtime: the
 * benchmark IVR's XState machine (`bench/flows/bench-ivr.yaml` compiled by `@ringflow/dsl`) driven
 * in process by a scripted server, side by side with the same IVR written as a plain object per
 * call (the bare application's logic), on the same events and the same stubbed requests.
 *
 *   npx tsx bench/flow-machine.ts [--calls 20000] [--concurrency 1000] [--runs 5] [--heap-snapshot DIR]
 *
 * The scripted server answers every request at once and raises the events a real call raises
 * (the simulator's own event bodies, recorded once at start-up, each delivered as JSON text and
 * parsed, as off the wire): StasisStart, ChannelStateChange, PlaybackStarted/Finished for both
 * prompts, two ChannelDtmfReceived after prompt 1, ChannelHangupRequest and StasisEnd after the
 * hangup. A call's machine gets the events some state of it handles (as a runtime session gives
 * them), and is stopped at StasisEnd. `--concurrency` calls are in flight at once; each one that
 * ends is replaced (closed loop).
 *
 * Reported per variant (medians of `--runs`, variants alternated within each run): CPU per call
 * (user + system) and live heap per call held at the digit prompt. The difference between the two
 * variants is what XState and the flow add per call on top of the IVR's own logic, which the
 * full benchmark (`npm run bench`) cannot isolate from sockets and JSON. `--heap-snapshot DIR`
 * writes heap snapshots of the warm-up runs, idle and with the calls held (diff them by
 * constructor to see what one held call is made of). Not part of `npm test`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { VirtualClock, systemClock } from '@ringflow/client';
import { callFromStasisStart, compileFlow, type FlowHost, loadFlowFile } from '@ringflow/dsl';
import { machineEventFilter } from '../packages/runtime/src/session/machineEventFilter.ts';
import { createSimulator } from '@ringflow/simulator';
import { type AnyActorRef, type AnyStateMachine, createActor } from 'xstate';
import { fmt, median, spread } from './apps/stats.ts';
import { BareIvrCall, type IvrRequests } from './ivr/BareIvrCall.ts';
import { CALLER_DIGITS, IVR_APP, PROMPT_1, PROMPT_2, PROMPT_SOUNDS } from './ivr/ivrWorkload.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '5' },
    'heap-snapshot': { type: 'string' },
  },
});
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
const RUNS = Number(values.runs);
const SNAPSHOTS = values['heap-snapshot'];

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The event bodies a simulated call raises, as JSON text with its ids as placeholders. */
type EventTemplates = Record<string, string>;

/**
 * Runs one call of the bench IVR on the in-process simulator and keeps the text of each event
 * type it raised, with the channel id replaced by `@C@` and the playback id by `@P@`.
 */
async function recordEventTemplates(): Promise<EventTemplates> {
  const clock = new VirtualClock();
  const sim = createSimulator({ clock, sounds: { extraSounds: PROMPT_SOUNDS } });
  const events: Record<string, unknown>[] = [];
  sim.connectEvents({ apps: [IVR_APP], subscribeAll: false }, (event) => events.push(event));
  const channelId = sim.driver.placeCall({
    app: IVR_APP,
    endpoint: 'PJSIP/trunk-0',
    from: '5550000',
    to: '100',
  });
  await clock.advance(0);
  await sim.handle({ method: 'POST', path: `/channels/${channelId}/answer`, query: {} });
  await sim.handle({
    method: 'POST',
    path: `/channels/${channelId}/play`,
    query: { media: PROMPT_1, playbackId: 'PLAYBACK' },
  });
  await clock.advance(1_000);
  sim.driver.pressDigits(channelId, '1', { durationMs: 5, gapMs: 0 });
  await clock.advance(1_000);
  await sim.handle({ method: 'DELETE', path: `/channels/${channelId}`, query: { reason: 'normal' } });
  await clock.advance(1_000);
  sim.close();
  const templates: EventTemplates = {};
  for (const event of events) {
    const text = JSON.stringify(event).replaceAll(channelId, '@C@').replaceAll('PLAYBACK', '@P@');
    templates[event.type as string] ??= text;
  }
  const finished = JSON.parse(templates.PlaybackFinished ?? '{}') as { playback?: { state?: string } };
  if (finished.playback?.state !== 'done')
    throw new Error(`prompt 1 did not play: ${templates.PlaybackFinished}`);
  for (const type of [
    'StasisStart',
    'ChannelStateChange',
    'PlaybackStarted',
    'PlaybackFinished',
    'ChannelDtmfReceived',
    'ChannelHangupRequest',
    'StasisEnd',
  ])
    if (!templates[type]) throw new Error(`the simulated call raised no ${type}`);
  return templates;
}

/** How an IVR implementation under test takes a call and its events. */
interface Variant {
  readonly name: string;
  /** A call entered the application; `api` is its stubbed REST interface. */
  start(channelId: string, stasisStart: Record<string, unknown>, api: StubApi): CallRunner;
}

interface CallRunner {
  deliver(event: Record<string, unknown>): void;
  stop(): void;
}

/** The requests the IVR makes, answered at once by the scripted server. */
interface StubApi extends IvrRequests {
  play(channelId: string, media: string, playbackId: string): Promise<unknown>;
  hangup(channelId: string): Promise<void>;
}

/** The scripted server: answers requests at once and queues the events they raise, in order. */
class ScriptedServer {
  private readonly queue: { channelId: string; text: string }[] = [];
  private head = 0;
  /** Calls whose caller may press digits; others wait at the digit prompt (held). */
  released = true;
  private readonly waiting: string[] = [];
  /** Calls whose prompt 2 was played and not yet hung up. */
  private readonly sayingGoodbye = new Set<string>();
  /** Calls hung up after prompt 2, as the IVR should end. */
  completed = 0;
  /** Calls hung up any other way (an IVR that does not work is not measured). */
  readonly wrongHangups: string[] = [];

  constructor(private readonly templates: EventTemplates) {}

  raise(channelId: string, type: string, playbackId = ''): void {
    this.queue.push({
      channelId,
      text: this.templates[type]!.replaceAll('@C@', channelId).replaceAll('@P@', playbackId),
    });
  }

  readonly api: StubApi = {
    answer: (channelId) => {
      this.raise(channelId, 'ChannelStateChange');
      return Promise.resolve();
    },
    play: (channelId, media, playbackId) => {
      this.raise(channelId, 'PlaybackStarted', playbackId);
      this.raise(channelId, 'PlaybackFinished', playbackId);
      if (media === PROMPT_1) {
        if (this.released) this.pressDigits(channelId);
        else this.waiting.push(channelId);
      } else if (media === PROMPT_2) this.sayingGoodbye.add(channelId);
      return Promise.resolve({
        id: playbackId,
        media_uri: media,
        target_uri: `channel:${channelId}`,
        state: 'queued',
      });
    },
    // Prompts end before the caller presses a key (as in the full bench): nothing to stop.
    stopPlayback: () => {},
    hangup: (channelId) => {
      if (this.sayingGoodbye.delete(channelId)) this.completed++;
      else this.wrongHangups.push(channelId);
      this.raise(channelId, 'ChannelHangupRequest');
      this.raise(channelId, 'StasisEnd');
      return Promise.resolve();
    },
  };

  private pressDigits(channelId: string): void {
    for (const digit of CALLER_DIGITS)
      this.queue.push({
        channelId,
        text: this.templates
          .ChannelDtmfReceived!.replaceAll('@C@', channelId)
          .replace(/"digit":"."/, `"digit":"${digit}"`),
      });
  }

  release(): void {
    this.released = true;
    for (const channelId of this.waiting.splice(0)) this.pressDigits(channelId);
  }

  /** True when no event is queued. */
  get drained(): boolean {
    return this.head === this.queue.length;
  }

  /** The next queued event, parsed, or undefined when none is queued. */
  next(): { channelId: string; event: Record<string, unknown> } | undefined {
    if (this.head === this.queue.length) {
      this.queue.length = this.head = 0;
      return undefined;
    }
    const { channelId, text } = this.queue[this.head++]!;
    return { channelId, event: JSON.parse(text) as Record<string, unknown> };
  }
}

/**
 * A call's effects for the flow, on the stubbed requests. A class, as the runtime's own host is:
 * per-call closures here would each carry a `name` property (tsx compiles this file with
 * esbuild's keepNames), a dictionary the runtime does not pay for.
 */
class StubFlowHost implements FlowHost {
  private ids = 0;
  readonly clock = systemClock;
  readonly application = IVR_APP;
  readonly log = { warn: () => {}, debug: () => {} };
  readonly ari: FlowHost['ari'];

  constructor(
    private readonly channelId: string,
    api: StubApi,
  ) {
    this.ari = new StubAri(api) as unknown as FlowHost['ari'];
  }

  newId(kind: string): string {
    return `${this.channelId}-${kind}-${++this.ids}`;
  }
  forget(): void {}
  watch(): void {}
}

/** `ari.channels` of {@link StubFlowHost}: the three channel operations the IVR uses. */
class StubAri {
  readonly channels: StubChannels;
  constructor(api: StubApi) {
    this.channels = new StubChannels(api);
  }
}

class StubChannels {
  constructor(private readonly api: StubApi) {}
  answer(params: { channelId: string }): Promise<void> {
    return this.api.answer(params.channelId);
  }
  play(params: { channelId: string; media: string | string[]; playbackId?: string }): Promise<unknown> {
    return this.api.play(params.channelId, String(params.media), params.playbackId ?? '');
  }
  hangup(params: { channelId: string }): Promise<void> {
    return this.api.hangup(params.channelId);
  }
}

/** One call of the flow: its XState actor, given the events some state handles. */
class FlowCall implements CallRunner {
  private readonly actor: AnyActorRef;

  constructor(
    machine: AnyStateMachine,
    private readonly accepts: (type: string) => boolean,
    channelId: string,
    stasisStart: Record<string, unknown>,
    api: StubApi,
  ) {
    const call = callFromStasisStart(stasisStart as Parameters<typeof callFromStasisStart>[0]);
    this.actor = createActor(machine, { input: { host: new StubFlowHost(channelId, api), call } });
    this.actor.start();
  }

  deliver(event: Record<string, unknown>): void {
    if (this.accepts(event.type as string)) this.actor.send(event as { type: string });
  }

  stop(): void {
    const snapshot = this.actor.getSnapshot();
    if (snapshot.status !== 'done' || snapshot.output?.status !== 'completed')
      throw new Error(`the flow ended ${snapshot.status}: ${JSON.stringify(snapshot.output)}`);
    this.actor.stop();
  }
}

/** The flow: one XState actor per call, as `createFlowCallMachine` runs it in the runtime. */
async function flowVariant(): Promise<Variant> {
  const flow = await loadFlowFile(fileURLToPath(new URL('./flows/bench-ivr.yaml', import.meta.url)));
  const machine = compileFlow(flow);
  const accepts = machineEventFilter(machine);
  return {
    name: 'flow (XState)',
    start: (channelId, stasisStart, api) => new FlowCall(machine, accepts, channelId, stasisStart, api),
  };
}

/** One call of the IVR as the bare application writes it ({@link BareIvrCall}), given its events. */
class PlainCall implements CallRunner {
  private readonly ivr: BareIvrCall;

  constructor(channelId: string, api: StubApi) {
    this.ivr = new BareIvrCall(channelId, api);
    this.ivr.start();
  }

  deliver(event: Record<string, unknown>): void {
    if (event.type === 'ChannelDtmfReceived') this.ivr.digit(event.digit as string);
    else if (event.type === 'PlaybackFinished')
      this.ivr.playbackFinished((event.playback as { id: string }).id);
  }

  stop(): void {
    this.ivr.end();
  }
}

/** The same IVR as the bare application writes it. */
function plainVariant(): Variant {
  return { name: 'plain object', start: (channelId, _stasisStart, api) => new PlainCall(channelId, api) };
}

/** Lets promise reactions (request replies, effect results) run before the next batch of events. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface RunFigures {
  cpuMsPerCall: number;
  heapBytesPerCall: number;
}

/** One run of a variant: hold `concurrency` calls to weigh them, then the closed loop of `calls` more. */
async function runVariant(
  variant: Variant,
  templates: EventTemplates,
  snapshots?: string,
): Promise<RunFigures> {
  const snapshot = (phase: string) => {
    if (!snapshots) return;
    mkdirSync(snapshots, { recursive: true });
    const name = variant.name.replace(/\W+/g, '-').replace(/-$/, '');
    writeHeapSnapshot(join(snapshots, `${name}-${phase}.heapsnapshot`));
  };
  const server = new ScriptedServer(templates);
  const calls = new Map<string, CallRunner>();
  let placed = 0;
  let ended = 0;
  let target = 0;
  const place = () => {
    const channelId = `call-${++placed}`;
    const start = JSON.parse(templates.StasisStart!.replaceAll('@C@', channelId)) as Record<string, unknown>;
    calls.set(channelId, variant.start(channelId, start, server.api));
  };
  const pump = async (until: () => boolean) => {
    while (!until()) {
      for (let i = 0; i < 512; i++) {
        const next = server.next();
        if (!next) break;
        const call = calls.get(next.channelId);
        if (!call) continue;
        call.deliver(next.event);
        if (next.event.type === 'StasisEnd') {
          call.stop();
          calls.delete(next.channelId);
          ended++;
          if (placed < target) place();
        }
      }
      await turn();
    }
  };

  gc();
  gc();
  const idle = process.memoryUsage().heapUsed;
  snapshot('idle');
  // Hold: every call waits at the digit prompt (its caller silent).
  server.released = false;
  for (let i = 0; i < CONCURRENCY; i++) place();
  await pump(() => placed === CONCURRENCY && server.drained);
  await turn();
  gc();
  gc();
  const heapBytesPerCall = (process.memoryUsage().heapUsed - idle) / CONCURRENCY;
  snapshot(`held-${CONCURRENCY}`);
  // Closed loop: release the held callers, replace every call that ends until `CALLS` more ended.
  const cpu = process.cpuUsage();
  target = CONCURRENCY + CALLS;
  server.release();
  await pump(() => ended === target);
  const used = process.cpuUsage(cpu);
  if (calls.size !== 0) throw new Error(`${variant.name}: ${calls.size} calls left`);
  if (server.completed !== target)
    throw new Error(
      `${variant.name}: ${server.completed} of ${target} calls went through the IVR (hung up early: ${server.wrongHangups.slice(0, 3).join(', ')})`,
    );
  return { cpuMsPerCall: (used.user + used.system) / 1000 / target, heapBytesPerCall };
}

const templates = await recordEventTemplates();
const variants = [await flowVariant(), plainVariant()];
console.log(
  `flow-machine: ${CALLS} calls in a closed loop of ${CONCURRENCY}, ${RUNS} runs, variants alternated (Node ${process.version})`,
);
// One unmeasured warm-up run each, so both are measured with their code optimised.
for (const variant of variants) await runVariant(variant, templates, SNAPSHOTS);
const figures = new Map<string, RunFigures[]>(variants.map((v) => [v.name, []]));
for (let run = 0; run < RUNS; run++) {
  for (const variant of run % 2 === 0 ? variants : [...variants].reverse()) {
    const result = await runVariant(variant, templates);
    figures.get(variant.name)!.push(result);
    console.log(
      `  run ${run + 1} ${variant.name.padEnd(14)} cpu ${fmt(result.cpuMsPerCall, 4)} ms/call, held ${fmt(result.heapBytesPerCall / 1024, 2)} KiB/call`,
    );
  }
}
const summary = (name: string, pick: (f: RunFigures) => number, digits: number) => {
  const values = figures.get(name)!.map(pick);
  return { median: median(values), spread: spread(values, digits) };
};
console.log('\nmedians (min–max):');
for (const variant of variants) {
  const cpu = summary(variant.name, (f) => f.cpuMsPerCall, 4);
  const heap = summary(variant.name, (f) => f.heapBytesPerCall / 1024, 2);
  console.log(`  ${variant.name.padEnd(14)} cpu ${cpu.spread} ms/call, held ${heap.spread} KiB/call`);
}
const [flow, plain] = variants.map((v) => summary(v.name, (f) => f.cpuMsPerCall, 4).median);
const [flowHeap, plainHeap] = variants.map((v) => summary(v.name, (f) => f.heapBytesPerCall, 0).median);
console.log(
  `  flow − plain: ${fmt(flow! - plain!, 4)} ms CPU and ${fmt((flowHeap! - plainHeap!) / 1024, 2)} KiB per call (what XState and the flow add)`,
);
