import { findModel, VirtualClock } from '@ringflow/client';
import {
  type CallInput,
  type CallSession,
  createApplication,
  inProcessEventTransport,
  inProcessRestTransport,
  type SessionOutcome,
} from '@ringflow/runtime';
import type { Application } from '@ringflow/runtime';
import { createSimulator, formatTimestamp, type Simulator } from '@ringflow/simulator';
import { pino } from 'pino';
import type { InspectionEvent } from 'xstate';
import { callFromStasisStart, type FlowOutput } from '../compile/FlowHost.ts';
import { compileFlow } from '../compile/compileFlow.ts';
import { parseFlow } from '../parseFlow.ts';
import { flowInputsOrThrow } from '../inputs/FlowInputError.ts';
import { hostFromCall } from '../runtime/createFlowCallMachine.ts';
import { parseDuration } from '../schema/s.ts';
import { formatDiagnostic } from '../validate/Diagnostic.ts';
import type { Flow } from '../validate/validateFlow.ts';
import { type ActionMatcher, compileActionMatcher } from './ActionMatcher.ts';
import {
  formatOffset,
  formatTimeline,
  type RecordedAction,
  type RecordedEvent,
  type TimelineEntry,
} from './CallTimeline.ts';
import { FlowExpectationError } from './FlowExpectationError.ts';
import { describeExpected, type Expected, matchValue } from './matchValue.ts';
import { operationOfRequest } from './operationOfRequest.ts';
import type { FarEnd, FarEndBehaviour, TestCallOptions } from './TestCallOptions.ts';

/** Who ended the call. */
export type EndedBy = 'caller' | 'flow' | 'dialplan' | 'server';

/** How and when the call ended. */
export interface CallEnd {
  /** Virtual milliseconds from the call's start. */
  readonly at: number;
  /** The flow's status (completed, hungUp, continued, failed); `hungUp` when the caller left first. */
  readonly status: FlowOutput['status'];
  readonly by: EndedBy;
  /** How the runtime's call session ended. */
  readonly session: SessionOutcome;
  /** The flow's variables at the end (when the flow itself finished). */
  readonly vars?: Readonly<Record<string, unknown>>;
  readonly output?: Readonly<Record<string, unknown>>;
}

/** What `expectEnd` checks; every field is optional. */
export interface EndExpectation {
  readonly status?: FlowOutput['status'];
  readonly by?: EndedBy;
  /** The call must end at most this long after it started (ms, or text such as `90s`). Default 1 h. */
  readonly within?: number | string;
  /** ... and not before this (ms or text). */
  readonly after?: number | string;
}

/** A duration for the test API: milliseconds, or text with a unit (`500ms`, `2s`, `1m`). */
export type TestDuration = number | string;

const DEFAULT_START = Date.UTC(2026, 0, 5, 10, 0); // a Monday, 11:00 in Paris
const DEFAULT_FAR_END_ANSWER_MS = 2000;
const DIGIT_MS = 100;
const DIGIT_GAP_MS = 100;
const INTERNAL_STATES = new Set(['$finish', '$end']);

/** Milliseconds from a test duration (a number is milliseconds here; flows count seconds). */
export function toMs(value: TestDuration, what: string): number {
  const ms = typeof value === 'number' ? value : parseDuration(value);
  if (ms === undefined || !Number.isFinite(ms) || ms < 0)
    throw new TypeError(`${what}: expected a duration such as 500ms, 2s or 1m, got ${JSON.stringify(value)}`);
  return ms;
}

/** The behaviour of the `attempt`-th call (from 0) to an endpoint: a list's last entry repeats. */
export function farEndFor(behaviour: FarEndBehaviour | undefined, attempt: number): FarEnd {
  if (behaviour === undefined) return 'answer';
  if (!Array.isArray(behaviour)) return behaviour as FarEnd;
  const list = behaviour as readonly FarEnd[];
  return list[Math.min(attempt, list.length - 1)] ?? 'answer';
}

function startTime(value: TestCallOptions['startAt']): number {
  if (value === undefined) return DEFAULT_START;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms))
    throw new TypeError(
      `startAt: expected a time such as 2026-01-05T10:00:00Z, got ${JSON.stringify(value)}`,
    );
  return ms;
}

function topState(value: unknown): string {
  if (typeof value === 'string') return value;
  return Object.keys(value as object)[0] ?? '';
}

/** The dialplan that brings the test call into the flow's application, variables set first. */
function testDialplan(options: TestCallOptions, app: string, extension: string): string {
  if (!/^[0-9A-Za-z*#+]+$/.test(extension))
    throw new TypeError(
      `extension: expected digits, letters, *, # or + (the number dialled), got ${JSON.stringify(extension)}`,
    );
  const lines = ['[ringflow-test]', `exten => ${extension},1,NoOp(flow test call)`];
  for (const [name, value] of Object.entries(options.variables ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new TypeError(`variables: '${name}' is not a channel variable name (letters, digits, _)`);
    if (/[\n\r]|\$\{/.test(String(value)))
      throw new TypeError(`variables.${name}: a value cannot contain a line break or \${...}`);
    lines.push(` same => n,Set(${name}=${String(value)})`);
  }
  for (const arg of options.args ?? [])
    if (/[,()\n]/.test(arg)) throw new TypeError(`args: '${arg}' cannot contain , ( ) or a line break`);
  lines.push(` same => n,Stasis(${[app, ...(options.args ?? [])].join(',')})`, ' same => n,Hangup()');
  return `${lines.join('\n')}\n\n${options.dialplan ?? ''}\n`;
}

/**
 * One call running a flow on the in-process simulator, through the real runtime, in virtual time.
 * Start it with {@link testFlow}. The test plays the caller (`press`, `hangUp`, `talk`), lets time
 * pass (`wait`), injects server events (`inject`), and checks what the flow did (`expectAction`,
 * `expectVisited`, `expectUserEvent`, `expectEnd`). A failing expectation throws a
 * {@link FlowExpectationError} showing the call's timeline.
 */
export class FlowTestCall {
  readonly flow: Flow;
  readonly clock: VirtualClock;
  readonly simulator: Simulator;
  readonly app: Application;
  readonly channelId: string;
  private readonly appName: string;
  private readonly entries: TimelineEntry[] = [];
  private readonly deliverers: ((event: Record<string, unknown>) => void)[] = [];
  private readonly visited: string[] = [];
  private t0 = 0;
  private started = false;
  private callerHungUp = false;
  private callSession: CallSession | undefined;
  private output: FlowOutput | undefined;
  private endedAt: number | undefined;
  private sessionOutcome: SessionOutcome | undefined;
  private stopInspecting: (() => void) | undefined;
  private closed = false;
  /** Calls placed so far to each endpoint: picks the behaviour of the next one from a list. */
  private readonly callsTo = new Map<string, number>();

  private constructor(flow: Flow, options: TestCallOptions) {
    this.flow = flow;
    this.channelId = options.channelId ?? 'c1';
    this.appName = options.app ?? 'flow-test';
    this.clock = new VirtualClock(startTime(options.startAt));
    const farEnds = options.farEnds ?? {};
    this.simulator = createSimulator({
      clock: this.clock,
      dialplan: {
        text: testDialplan(options, this.appName, options.extension ?? '100'),
        file: 'flow-test.conf',
      },
      endpoints: Object.keys(farEnds),
      // The test decides how far ends behave (see onRinging).
      answerOutboundAfterMs: null,
    });
    this.simulator.driver.onEvent((event) => {
      if (event.type === 'Dial' && event.dialstatus === 'RINGING') this.onRinging(event, farEnds);
    });
    const sim = this.simulator;
    const recorded = {
      handle: async (request: Parameters<Simulator['handle']>[0]) => {
        const action = this.started ? this.recordAction(request) : undefined;
        const reply = await sim.handle(request);
        if (action) action.status = reply.status;
        return reply;
      },
      connectEvents: (
        request: Parameters<Simulator['connectEvents']>[0],
        deliver: (event: Record<string, unknown>) => void,
      ) => {
        const tap = (event: Record<string, unknown>) => {
          if (this.started)
            this.entries.push({
              kind: 'event',
              at: this.elapsed(),
              type: String(event.type),
              event,
              injected: false,
            });
          deliver(event);
        };
        if (request.apps.includes(this.appName)) this.deliverers.push(deliver);
        return sim.connectEvents(request, tap);
      },
    };
    const inputs = flowInputsOrThrow(flow.document.name, flow.document.inputs ?? {}, options.inputs ?? {});
    const variables = options.variables ?? {};
    const machine = compileFlow(flow, {
      adaptInput: (raw) => {
        const { call } = raw as CallInput;
        const info = callFromStasisStart(call.start);
        return {
          host: hostFromCall(call, options.fetch ? { fetch: options.fetch } : {}),
          call: { ...info, variables: { ...variables, ...info.variables } },
          input: inputs,
        };
      },
    });
    let n = 0;
    this.app = createApplication({
      servers: [
        {
          url: 'http://simulator/ari',
          username: 'flow',
          password: 'test',
          restTransport: inProcessRestTransport(recorded),
          eventTransport: inProcessEventTransport(recorded),
          eventStream: { pingIntervalMs: 0 },
        },
      ],
      apps: [this.appName],
      call: machine,
      clock: this.clock,
      ids: () => String(++n),
      logger: pino({ level: 'silent' }),
    });
  }

  /** @internal Use {@link testFlow}. */
  static async start(flow: Flow, options: TestCallOptions): Promise<FlowTestCall> {
    const call = new FlowTestCall(flow, options);
    await call.app.start();
    call.app.calls$.subscribe((session) => {
      if (session.channelId === call.channelId) call.watch(session);
    });
    call.t0 = call.clock.now();
    call.started = true;
    call.simulator.driver.placeCall({
      channelId: call.channelId,
      from: options.caller ?? '5551234',
      ...(options.callerName !== undefined ? { callerName: options.callerName } : {}),
      to: options.extension ?? '100',
      context: 'ringflow-test',
      ...(options.language !== undefined ? { language: options.language } : {}),
    });
    await call.clock.advance(0);
    return call;
  }

  /** The runtime's session of the call (its machine's actor, counters), once the call entered the flow. */
  get session(): CallSession | undefined {
    return this.callSession;
  }

  private elapsed(): number {
    return this.clock.now() - this.t0;
  }

  private recordAction(request: {
    method: string;
    path: string;
    query: Readonly<Record<string, string>>;
    body?: unknown;
  }): RecordedAction {
    const recognised = operationOfRequest(request.method, request.path);
    const body =
      request.body !== null && typeof request.body === 'object'
        ? (request.body as Record<string, unknown>)
        : {};
    const action: RecordedAction = {
      kind: 'action',
      at: this.elapsed(),
      method: request.method,
      path: request.path,
      ...(recognised ? { operation: recognised.operation } : {}),
      params: { ...recognised?.pathParams, ...request.query, ...body },
      query: request.query,
      ...(request.body !== undefined ? { body: request.body } : {}),
    };
    this.entries.push(action);
    return action;
  }

  private onRinging(
    event: Readonly<Record<string, unknown>>,
    farEnds: Readonly<Record<string, FarEndBehaviour>>,
  ): void {
    const peer = event.peer as { id: string; name: string } | undefined;
    if (!peer) return;
    const endpoint = peer.name.replace(/-[^-/]*$/, '');
    const attempt = this.callsTo.get(endpoint) ?? 0;
    this.callsTo.set(endpoint, attempt + 1);
    const behaviour = farEndFor(farEnds[endpoint], attempt);
    const driver = this.simulator.driver;
    const later = (ms: number, act: () => void) =>
      this.clock.setTimeout(() => {
        try {
          act();
        } catch {
          // The dialled channel ended meanwhile (the flow gave up): nothing to do.
        }
      }, ms);
    if (behaviour === 'noAnswer') return;
    if (behaviour === 'busy') later(0, () => driver.reject(peer.id, 17));
    else if (behaviour === 'unreachable') later(0, () => driver.reject(peer.id, 27));
    else
      later(behaviour === 'answer' ? DEFAULT_FAR_END_ANSWER_MS : behaviour.answerAfterMs, () =>
        driver.answer(peer.id),
      );
  }

  private watch(session: CallSession): void {
    this.callSession = session;
    void session.done.then((outcome) => {
      this.sessionOutcome = outcome;
      this.endedAt = this.elapsed();
    });
    // The actor is created right after the session is announced.
    queueMicrotask(() => {
      const actor = session.machine;
      if (!actor) return;
      const start = this.flow.document.start;
      this.enter(start);
      this.enter(topState(actor.getSnapshot().value));
      const inspection = actor.system.inspect((event: InspectionEvent) => {
        if (event.type === '@xstate.microstep' && event.actorRef === actor)
          this.enter(topState((event.snapshot as unknown as { value: unknown }).value));
      });
      this.stopInspecting = () => inspection.unsubscribe();
      actor.subscribe({
        next: (snapshot) => {
          if (snapshot.status === 'done') this.output = snapshot.output as FlowOutput;
        },
        error: () => {},
      });
    });
  }

  private enter(state: string): void {
    if (INTERNAL_STATES.has(state) || state === '') return;
    const from = this.current();
    if (from === state) return;
    this.visited.push(state);
    this.entries.push({ kind: 'state', at: this.elapsed(), state, ...(from ? { from } : {}) });
  }

  private current(): string | undefined {
    return this.visited[this.visited.length - 1];
  }

  private note(text: string): void {
    this.entries.push({ kind: 'caller', at: this.elapsed(), text });
  }

  // --- Driving the call -----------------------------------------------------------------------

  /**
   * Lets virtual time pass (prompts play, timeouts fire).
   * @example await call.wait('6s');
   */
  async wait(duration: TestDuration): Promise<void> {
    await this.clock.advance(toMs(duration, 'wait'));
  }

  /**
   * The caller presses keys, one DTMF each (100 ms long, 100 ms apart); returns once they arrived.
   * @example await call.press('1#');
   */
  async press(digits: string): Promise<void> {
    if (!/^[0-9A-D*#]+$/i.test(digits))
      throw new TypeError(`press: expected keys 0-9, *, #, A-D, got ${JSON.stringify(digits)}`);
    this.note(`caller presses ${digits}`);
    this.simulator.driver.pressDigits(this.channelId, digits, { durationMs: DIGIT_MS, gapMs: DIGIT_GAP_MS });
    await this.clock.advance(digits.length * (DIGIT_MS + DIGIT_GAP_MS));
  }

  /** The caller hangs up (normal clearing). */
  async hangUp(): Promise<void> {
    this.note('caller hangs up');
    this.callerHungUp = true;
    this.simulator.driver.hangup(this.channelId);
    await this.clock.advance(0);
  }

  /**
   * The caller talks for a while (talk detection and recordings hear it).
   * @example await call.talk('3s');
   */
  async talk(duration: TestDuration): Promise<void> {
    const ms = toMs(duration, 'talk');
    this.note(`caller talks for ${ms} ms`);
    this.simulator.driver.startTalking(this.channelId);
    await this.clock.advance(ms);
    this.simulator.driver.stopTalking(this.channelId);
    await this.clock.advance(0);
  }

  /**
   * Every live channel dialled to `endpoint` (`PJSIP/operator`) hangs up: the far end of a dial.
   * @example await call.hangUpFarEnd('PJSIP/operator');
   */
  async hangUpFarEnd(endpoint: string): Promise<void> {
    const reply = await this.simulator.handle({ method: 'GET', path: '/channels', query: {} });
    const channels = (reply.body as { id: string; name: string }[]) ?? [];
    const theirs = channels.filter((c) => c.name.startsWith(`${endpoint}-`));
    if (theirs.length === 0) {
      throw new FlowExpectationError(
        `a live channel to ${endpoint} to hang up`,
        `there is none (live channels: ${channels.map((c) => c.name).join(', ') || 'none'})`,
        this.entries,
      );
    }
    this.note(`${endpoint} hangs up`);
    for (const c of theirs) this.simulator.driver.hangup(c.id);
    await this.clock.advance(0);
  }

  /**
   * Delivers an event to the flow's application as if the server sent it. `application`,
   * `timestamp` and `asterisk_id` are filled in; so is `channel` (the call's channel as it is
   * now) when the event type carries a channel and none is given.
   *
   * @example await call.inject({ type: 'ChannelUserevent', eventname: 'Escalate', userevent: {} });
   */
  async inject(event: { readonly type: string } & Readonly<Record<string, unknown>>): Promise<void> {
    if (typeof event.type !== 'string' || event.type === '')
      throw new TypeError(
        'inject: the event needs a type, e.g. { type: "ChannelUserevent", eventname: "X" }',
      );
    const full: Record<string, unknown> = {
      ...event,
      application: this.appName,
      timestamp: formatTimestamp(this.clock.now()),
      asterisk_id: this.simulator.asteriskId,
    };
    if (full.channel === undefined && findModel(event.type)?.properties.channel !== undefined) {
      const reply = await this.simulator.handle({
        method: 'GET',
        path: `/channels/${encodeURIComponent(this.channelId)}`,
        query: {},
      });
      full.channel = reply.status === 200 ? reply.body : { id: this.channelId };
    }
    this.entries.push({ kind: 'event', at: this.elapsed(), type: event.type, event: full, injected: true });
    for (const deliver of this.deliverers) deliver(full);
    await this.clock.advance(0);
  }

  // --- What happened --------------------------------------------------------------------------

  /** The REST requests the flow made, oldest first. */
  actions(matcher?: ActionMatcher): RecordedAction[] {
    const all = this.entries.filter((e): e is RecordedAction => e.kind === 'action');
    if (matcher === undefined) return all;
    const compiled = compileActionMatcher(matcher);
    return all.filter((a) => compiled.matches(a));
  }

  /** The events the flow's application received (injected ones included), oldest first. */
  events(type?: string): RecordedEvent[] {
    return this.entries.filter(
      (e): e is RecordedEvent => e.kind === 'event' && (type === undefined || e.type === type),
    );
  }

  /** The flow states entered, in order (a state entered again appears again). */
  states(): string[] {
    return [...this.visited];
  }

  /** Everything that happened, oldest first, with virtual times from the call's start. */
  timeline(): readonly TimelineEntry[] {
    return [...this.entries];
  }

  /** The timeline as text (`+00:03.200  → POST /channels/c1/play media=...`). */
  formatTimeline(): string {
    return formatTimeline(this.entries);
  }

  /** How and when the call ended; undefined while it goes on. */
  end(): CallEnd | undefined {
    if (this.endedAt === undefined || this.sessionOutcome === undefined) return undefined;
    const own = (a: RecordedAction) => a.params.channelId === this.channelId;
    const flowHungUp = this.actions().some((a) => a.operation === 'channels.hangup' && own(a));
    const continued = this.actions().some((a) => a.operation === 'channels.continueInDialplan' && own(a));
    const by: EndedBy = this.callerHungUp
      ? 'caller'
      : continued
        ? 'dialplan'
        : flowHungUp
          ? 'flow'
          : 'server';
    // A caller who left first makes it `hungUp`, whatever the hangup handler did afterwards.
    const status: FlowOutput['status'] =
      by === 'caller'
        ? 'hungUp'
        : (this.output?.status ?? (by === 'dialplan' ? 'continued' : by === 'flow' ? 'completed' : 'failed'));
    return {
      at: this.endedAt,
      status,
      by,
      session: this.sessionOutcome,
      ...(this.output ? { vars: this.output.vars } : {}),
      ...(this.output?.output ? { output: this.output.output } : {}),
    };
  }

  // --- Expectations -----------------------------------------------------------------------------

  private fail(expected: string, happened: string): never {
    throw new FlowExpectationError(expected, happened, this.entries);
  }

  /**
   * Checks that the flow made a REST action (by now); returns the matching actions.
   * `times` asks for an exact count.
   *
   * @example
   * call.expectAction({ operation: 'channels.play', params: { media: /hello-world/ } });
   * call.expectAction('DELETE /channels/c1', { times: 1 });
   */
  expectAction(matcher: ActionMatcher, options: { times?: number } = {}): RecordedAction[] {
    const compiled = compileActionMatcher(matcher);
    const all = this.actions();
    const found = all.filter((a) => compiled.matches(a));
    const ok = options.times === undefined ? found.length > 0 : found.length === options.times;
    if (ok) return found;
    const expected =
      options.times === undefined
        ? compiled.description
        : `${compiled.description}, ${options.times} time${options.times === 1 ? '' : 's'}`;
    const similar = all.filter((a) => compiled.sameKind(a));
    const happened =
      found.length > 0
        ? `it was made ${found.length} time${found.length === 1 ? '' : 's'}`
        : similar.length > 0
          ? `the parameters differ; the actions of that kind were:\n${similar.map((a) => `  ${formatTimeline([a])}`).join('\n')}`
          : `no such action was made (${all.length} actions in all, marked → below)`;
    return this.fail(expected, happened);
  }

  /** Checks that the flow made no such REST action (by now). */
  expectNoAction(matcher: ActionMatcher): void {
    const compiled = compileActionMatcher(matcher);
    const found = this.actions().filter((a) => compiled.matches(a));
    if (found.length > 0)
      this.fail(
        `no ${compiled.description.replace(/^an /, '')}`,
        `it was made:\n${found.map((a) => `  ${formatTimeline([a])}`).join('\n')}`,
      );
  }

  /**
   * Checks that the flow entered every one of these states (in any order).
   * @example call.expectVisited('main-menu', 'voicemail');
   */
  expectVisited(...states: string[]): void {
    this.checkStateNames(states);
    const missing = states.filter((s) => !this.visited.includes(s));
    if (missing.length > 0)
      this.fail(
        `the flow to visit ${missing.join(', ')}`,
        `it visited ${this.visited.join(' → ') || 'nothing'}`,
      );
  }

  /** Checks that the flow never entered these states. */
  expectNotVisited(...states: string[]): void {
    this.checkStateNames(states);
    const seen = states.filter((s) => this.visited.includes(s));
    if (seen.length > 0)
      this.fail(`the flow never to visit ${seen.join(', ')}`, `it visited ${this.visited.join(' → ')}`);
  }

  /**
   * Checks the exact sequence of states entered so far.
   * @example call.expectStates(['greet', 'main-menu', 'sales-menu']);
   */
  expectStates(sequence: readonly string[]): void {
    this.checkStateNames(sequence);
    if (sequence.length !== this.visited.length || sequence.some((s, i) => this.visited[i] !== s))
      this.fail(
        `the states ${sequence.join(' → ')}`,
        `the flow went ${this.visited.join(' → ') || 'nowhere'}`,
      );
  }

  /** Checks the state the flow is in now. */
  expectState(state: string): void {
    this.checkStateNames([state]);
    if (this.current() !== state)
      this.fail(`the flow to be in ${state}`, `it is in ${this.current() ?? 'no state'}`);
  }

  private checkStateNames(states: readonly string[]): void {
    const known = Object.keys(this.flow.document.states);
    const unknown = states.filter((s) => !known.includes(s));
    if (unknown.length > 0)
      throw new TypeError(
        `unknown state ${unknown.map((s) => `'${s}'`).join(', ')} in an expectation; the states of ${this.flow.document.name} are: ${known.join(', ')}`,
      );
  }

  /**
   * Checks that the flow raised a user event (the `userEvent` step), with these variables (partial).
   * @example call.expectUserEvent('VoicemailLeft', { recording: /^voicemail\// });
   */
  expectUserEvent(name: string, variables?: Readonly<Record<string, Expected>>): RecordedAction[] {
    const raised = this.actions().filter((a) => a.operation === 'events.userEvent');
    const named = raised.filter((a) => a.params.eventName === name);
    const found = named.filter(
      (a) => variables === undefined || matchValue(variables, (a.body as { variables?: unknown })?.variables),
    );
    if (found.length > 0) return found;
    const expected = `a user event ${name}${variables ? ` with variables ${describeExpected(variables)}` : ''}`;
    const list = (named.length > 0 ? named : raised)
      .map(
        (a) =>
          `  ${a.params.eventName} ${JSON.stringify((a.body as { variables?: unknown })?.variables ?? {})}`,
      )
      .join('\n');
    return this.fail(
      expected,
      raised.length === 0 ? 'the flow raised no user event' : `the flow raised:\n${list}`,
    );
  }

  /**
   * Lets virtual time run until the call ends (at most `within`, default 1 h), then checks how
   * and when it ended.
   *
   * @example
   * await call.expectEnd({ status: 'completed', by: 'flow', within: '90s' });
   */
  async expectEnd(expected: EndExpectation = {}): Promise<CallEnd> {
    const within = expected.within === undefined ? 3_600_000 : toMs(expected.within, 'within');
    const limit = this.t0 + within;
    while (this.end() === undefined) {
      const due = this.clock.nextDue();
      if (due === undefined || due > limit) {
        if (this.clock.now() < limit && due !== undefined) await this.clock.advanceTo(limit);
        break;
      }
      await this.clock.advanceTo(due);
    }
    // Let the flow's last handlers (hangup handler, final state) run at the same instant.
    await this.clock.advance(0);
    const end = this.end();
    const wanted = describeEnd(expected);
    if (!end) {
      return this.fail(
        `the call to end${wanted}`,
        `it was still up at ${formatOffset(this.elapsed())}${this.clock.nextDue() === undefined ? ', with nothing left to happen (the flow waits for an event)' : ''}`,
      );
    }
    this.entries.push({
      kind: 'end',
      at: end.at,
      text: `call ended: ${end.status}, by the ${end.by}`,
    });
    this.entries.sort((a, b) => a.at - b.at);
    const after = expected.after === undefined ? 0 : toMs(expected.after, 'after');
    const problems: string[] = [];
    if (expected.status !== undefined && end.status !== expected.status)
      problems.push(`status ${end.status}`);
    if (expected.by !== undefined && end.by !== expected.by) problems.push(`ended by the ${end.by}`);
    if (end.at > within || end.at < after) problems.push(`ended at ${formatOffset(end.at)}`);
    if (problems.length > 0)
      this.fail(
        `the call to end${wanted}`,
        `it ended with ${problems.join(', ')} (status ${end.status}, by the ${end.by}, at ${formatOffset(end.at)})`,
      );
    return end;
  }

  /** Stops the application and the simulator. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopInspecting?.();
    await this.app.stop();
    this.simulator.close();
  }

  /** For `await using call = await testFlow(...)`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function describeEnd(e: EndExpectation): string {
  const parts: string[] = [];
  if (e.status !== undefined) parts.push(`with status ${e.status}`);
  if (e.by !== undefined) parts.push(`by the ${e.by}`);
  if (e.after !== undefined) parts.push(`after ${durationText(e.after)}`);
  if (e.within !== undefined) parts.push(`within ${durationText(e.within)}`);
  return parts.length === 0 ? '' : ` ${parts.join(', ')}`;
}

/** A test duration as people write it: `5 min`, `90 s`, `1.5 s` (text is kept as written). */
function durationText(d: TestDuration): string {
  if (typeof d === 'string') return d;
  if (d >= 3_600_000 && d % 3_600_000 === 0) return `${d / 3_600_000} h`;
  if (d >= 60_000 && d % 60_000 === 0) return `${d / 60_000} min`;
  if (d >= 1000) return `${d / 1000} s`;
  return `${d} ms`;
}

/**
 * Starts one call running a flow on the in-process simulator, in virtual time, and returns it for
 * the test to drive and check. `flow` is a loaded flow (`loadFlowFile`, `defineFlow`) or the
 * path of a YAML flow file.
 *
 * @example
 * import { testFlow } from '@ringflow/dsl/testing';
 * const call = await testFlow(await loadFlowFile('flows/ivr.yaml'), { caller: '5551234' });
 * await call.wait('2s');
 * await call.press('3');
 * call.expectVisited('voicemail');
 * await call.expectEnd({ status: 'completed', within: '3m' });
 * await call.close();
 */
export async function testFlow(flow: Flow | string, options: TestCallOptions = {}): Promise<FlowTestCall> {
  const loaded = typeof flow === 'string' ? await loadFlow(flow) : flow;
  return FlowTestCall.start(loaded, options);
}

async function loadFlow(path: string): Promise<Flow> {
  const { readFile } = await import('node:fs/promises');
  const result = parseFlow(await readFile(path, 'utf8'), path);
  if (!result.ok)
    throw new TypeError(
      `the flow ${path} has errors:\n${result.diagnostics.map((d) => formatDiagnostic(d)).join('\n')}`,
    );
  return result.flow;
}
