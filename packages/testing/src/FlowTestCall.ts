import type { Flow, FlowOutput } from '@ringflow/dsl';
import {
  type CallEnded,
  type CallEndStatus,
  type CallSession,
  type EndedBy,
  formatCallEnd,
  type CallEnd as HowCallEnded,
  type SessionOutcome,
  type StepFailure,
} from '@ringflow/runtime';
import type { InspectionEvent } from 'xstate';
import type { ActionMatcher } from './ActionMatcher.ts';
import {
  formatFailure,
  formatOffset,
  type RecordedAction,
  type RecordedEvent,
  type TimelineEntry,
} from './CallTimeline.ts';
import { checkAction, checkNoAction, checkUserEvent } from './actionChecks.ts';
import type { CallScenario } from './CallScenario.ts';
import { toMs } from './durations.ts';
import type { Expected } from './matchValue.ts';
import type { TestDuration } from './TestCallOptions.ts';

export type { EndedBy };

/**
 * How and when the call ended: `status` and `by` are the runtime's (the one vocabulary of call
 * ends, the same as the `call ended` log line, the metrics and the console).
 */
export interface CallEnd extends HowCallEnded {
  /** Virtual milliseconds from the call's arrival. */
  readonly at: number;
  /** How the runtime's call session ended. */
  readonly session: SessionOutcome;
  /** The flow's variables at the end (when the flow itself finished). */
  readonly vars?: Readonly<Record<string, unknown>>;
  readonly output?: Readonly<Record<string, unknown>>;
  /** The failure behind a `failed` or `recovered` status (message, status, operation, step, state). */
  readonly error?: Readonly<Record<string, unknown>>;
}

/** What `expectEnd` checks; every field is optional. */
export interface EndExpectation {
  readonly status?: CallEndStatus;
  readonly by?: EndedBy;
  /** The call must end at most this long after it arrived (ms, or text such as `90s`). Default 1 h. */
  readonly within?: number | string;
  /** ... and not before this (ms or text). */
  readonly after?: number | string;
}

const DIGIT_MS = 100;
const DIGIT_GAP_MS = 100;
const INTERNAL_STATES = new Set(['$finish', '$end']);

/** What the timeline reads of a compiled flow's context (its step result, scratch and state). */
interface FlowSnapshotContext {
  readonly result?: Readonly<Record<string, unknown>>;
  readonly step?: Readonly<Record<string, unknown>>;
  readonly state?: string;
}

/** The fields of a step result worth a glance: `digits=12 cause=17` (not the bookkeeping ones). */
function resultDetail(result: Readonly<Record<string, unknown>>): string {
  const skip = new Set(['outcome', 'step', 'state', 'vars']);
  return Object.entries(result)
    .filter(([k, v]) => !skip.has(k) && v !== undefined && v !== '' && v !== 0 && typeof v !== 'object')
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

function topState(value: unknown): string {
  if (typeof value === 'string') return value;
  return Object.keys(value as object)[0] ?? '';
}

/**
 * One caller of a {@link CallScenario}, running a flow through the real runtime on the in-process
 * simulator, in virtual time. Start one with {@link testFlow} (a scenario of one call), or get
 * each caller of {@link testCalls} with `scenario.call(name)`. The test plays the caller
 * (`press`, `hangUp`, `talk`), lets time pass (`wait`), injects server events (`inject`), and
 * checks what the flow did for this call (`expectAction`, `expectVisited`, `expectUserEvent`,
 * `expectEnd`). A failing expectation throws a {@link FlowExpectationError} showing the timeline
 * of every call of the scenario.
 */
export class FlowTestCall {
  /** The scenario this call belongs to (its clock, simulator, application, the other calls). */
  readonly scenario: CallScenario;
  /** The caller's name in the scenario (`caller` for `testFlow`). */
  readonly name: string;
  /** The far end this party is (`PJSIP/agent`), when it answers dials rather than calling. */
  readonly answers: string | undefined;
  /** False for a far end that is a phone (driven by the test), not another flow's call. */
  readonly runsFlow: boolean;
  #channelId: string;
  /** The flow this call enters. */
  readonly flow: Flow;
  private readonly visited: string[] = [];
  private arrivedAt: number | undefined;
  private callSession: CallSession | undefined;
  private output: FlowOutput | undefined;
  private endedAt: number | undefined;
  private sessionOutcome: SessionOutcome | undefined;
  private sessionResult: CallEnded | undefined;
  private stopInspecting: (() => void) | undefined;
  private readonly stepFailures: StepFailure[] = [];
  /** The last step result and menu counts seen, to record only what changed. */
  private lastResult: FlowSnapshotContext['result'];
  private readonly lastCounts: Partial<Record<'noInput' | 'noMatch', number>> = {};

  /** @internal Made by its scenario. */
  constructor(
    scenario: CallScenario,
    name: string,
    channelId: string,
    flow: Flow,
    farEnd?: { readonly answers: string; readonly runsFlow: boolean },
  ) {
    this.scenario = scenario;
    this.name = name;
    this.#channelId = channelId;
    this.answers = farEnd?.answers;
    this.runsFlow = farEnd === undefined || farEnd.runsFlow;
    this.flow = flow;
  }

  get clock() {
    return this.scenario.clock;
  }
  get simulator() {
    return this.scenario.simulator;
  }
  get app() {
    return this.scenario.app;
  }

  /** The runtime's session of the call (its machine's actor, counters), once the call entered the flow. */
  get session(): CallSession | undefined {
    return this.callSession;
  }

  /** The call's channel (a far end's: the dialled channel, once a flow dialled its phone). */
  get channelId(): string {
    return this.#channelId;
  }

  /** True once the call was placed (a caller with `at` arrives later; a far end when dialled). */
  get arrived(): boolean {
    return this.arrivedAt !== undefined;
  }

  /** @internal A flow dialled this far end's phone: the dialled channel is its now. */
  dialled(channelId: string, at: number): void {
    this.#channelId = channelId;
    this.arrivedAt = at;
  }

  /** @internal The scenario placed the call, at this scenario time. */
  placed(at: number): void {
    this.arrivedAt = at;
  }

  /** Virtual milliseconds since the call arrived (0 before). */
  private sinceArrival(): number {
    return this.arrivedAt === undefined ? 0 : this.scenario.elapsed() - this.arrivedAt;
  }

  /** @internal Follows the call's session: its states, its end. */
  watch(session: CallSession): void {
    this.callSession = session;
    void session.done.then((outcome) => {
      this.sessionOutcome = outcome;
      this.sessionResult = session.result;
      this.endedAt = this.sinceArrival();
    });
    // The actor is created right after the session is announced.
    queueMicrotask(() => {
      const actor = session.machine;
      if (!actor) return;
      this.enter(this.flow.document.start);
      this.enter(topState(actor.getSnapshot().value));
      const inspection = actor.system.inspect((event: InspectionEvent) => {
        if (event.type !== '@xstate.microstep' || event.actorRef !== actor) return;
        const snapshot = event.snapshot as unknown as { value: unknown; context: FlowSnapshotContext };
        this.enter(topState(snapshot.value));
        this.noteOutcomes(snapshot.context);
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

  /**
   * Records the outcomes worth seeing as the flow's context changes: a step result other than a
   * plain `done`, and a menu's no-input / no-match counts going up (it asks again).
   */
  private noteOutcomes(context: FlowSnapshotContext | undefined): void {
    if (!context) return;
    const result = context.result;
    // A failure has its own entry (the flow reports it with its place and what followed).
    if (
      result &&
      result !== this.lastResult &&
      typeof result.outcome === 'string' &&
      result.outcome !== 'done' &&
      result.outcome !== 'failed'
    )
      this.recordOutcome(
        String(result.state ?? ''),
        String(result.step ?? ''),
        result.outcome,
        resultDetail(result),
      );
    this.lastResult = result;
    const scratch = context.step ?? {};
    for (const kind of ['noInput', 'noMatch'] as const) {
      const count = Number(scratch[kind] ?? 0);
      if (count > (this.lastCounts[kind] ?? 0))
        this.recordOutcome(String(context.state ?? ''), 'menu', kind, `(${count} so far)`);
      this.lastCounts[kind] = count;
    }
  }

  private recordOutcome(state: string, step: string, outcome: string, detail: string): void {
    this.scenario.record({
      kind: 'outcome',
      at: this.scenario.elapsed(),
      call: this.name,
      state,
      step,
      outcome,
      detail,
    });
  }

  /** @internal A step of this call's flow failed. */
  failed(failure: StepFailure): void {
    this.stepFailures.push(failure);
  }

  /** The step failures this call's flow reported, oldest first (each with its place and what followed). */
  failures(): readonly StepFailure[] {
    return [...this.stepFailures];
  }

  /** @internal */
  stopWatching(): void {
    this.stopInspecting?.();
  }

  private enter(state: string): void {
    if (INTERNAL_STATES.has(state) || state === '') return;
    const from = this.current();
    if (from === state) return;
    this.visited.push(state);
    this.scenario.record({
      kind: 'state',
      at: this.scenario.elapsed(),
      call: this.name,
      state,
      ...(from ? { from } : {}),
    });
  }

  private current(): string | undefined {
    return this.visited[this.visited.length - 1];
  }

  private note(text: string): void {
    this.scenario.note(text, this.name);
  }

  private mustHaveArrived(what: string): void {
    if (this.arrived) return;
    throw new TypeError(
      this.answers !== undefined
        ? `${this.name} ${what}: no flow has dialled ${this.answers} yet`
        : `${this.name} ${what}: the call has not arrived yet (wait until its \`at\`)`,
    );
  }

  /** A far end runs no flow (unless it is another flow's call): expectations about its flow make no sense. */
  private mustRunAFlow(what: string): void {
    if (!this.runsFlow)
      throw new TypeError(
        `${this.name} answers ${this.answers}: it runs no flow, so ${what} cannot be checked`,
      );
  }

  // --- Driving the call -----------------------------------------------------------------------

  /**
   * Lets virtual time pass for the whole scenario (prompts play, timeouts fire).
   * @example await call.wait('6s');
   */
  async wait(duration: TestDuration): Promise<void> {
    await this.scenario.wait(duration);
  }

  /**
   * The caller presses keys, one DTMF each (100 ms long, 100 ms apart); returns once they arrived.
   * @example await call.press('1#');
   */
  async press(digits: string): Promise<void> {
    if (!/^[0-9A-D*#]+$/i.test(digits))
      throw new TypeError(`press: expected keys 0-9, *, #, A-D, got ${JSON.stringify(digits)}`);
    this.mustHaveArrived('presses keys');
    this.note(`caller presses ${digits}`);
    this.simulator.driver.pressDigits(this.channelId, digits, { durationMs: DIGIT_MS, gapMs: DIGIT_GAP_MS });
    await this.scenario.passTime(digits.length * (DIGIT_MS + DIGIT_GAP_MS));
  }

  /** The caller hangs up (normal clearing). */
  async hangUp(): Promise<void> {
    this.mustHaveArrived('hangs up');
    this.note('caller hangs up');
    this.simulator.driver.hangup(this.channelId);
    await this.clock.advance(0);
  }

  /**
   * The caller talks for a while (talk detection and recordings hear it).
   * @example await call.talk('3s');
   */
  async talk(duration: TestDuration): Promise<void> {
    const ms = toMs(duration, 'talk');
    this.mustHaveArrived('talks');
    this.note(`caller talks for ${ms} ms`);
    this.simulator.driver.startTalking(this.channelId);
    await this.scenario.passTime(ms);
    this.simulator.driver.stopTalking(this.channelId);
    await this.clock.advance(0);
  }

  /**
   * Every live channel dialled to `endpoint` (`PJSIP/operator`) hangs up: the far end of a dial.
   * @example await call.hangUpFarEnd('PJSIP/operator');
   */
  async hangUpFarEnd(endpoint: string): Promise<void> {
    await this.scenario.hangUpFarEnd(endpoint);
  }

  /**
   * Delivers an event to the flows as if the server sent it. `application`, `timestamp` and
   * `asterisk_id` are filled in; so is `channel` (this call's channel as it is now) when the event
   * type carries a channel and none is given.
   *
   * @example await call.inject({ type: 'ChannelUserevent', eventname: 'Escalate', userevent: {} });
   */
  async inject(event: { readonly type: string } & Readonly<Record<string, unknown>>): Promise<void> {
    await this.scenario.inject(event, this);
  }

  // --- What happened --------------------------------------------------------------------------

  /** The REST requests the flow made for this call, oldest first. */
  actions(matcher?: ActionMatcher): RecordedAction[] {
    return this.scenario.actions(matcher).filter((a) => a.call === this.name);
  }

  /** The events the flows' applications received (injected ones included), oldest first. */
  events(type?: string): RecordedEvent[] {
    return this.scenario.events(type);
  }

  /** The flow states this call entered, in order (a state entered again appears again). */
  states(): string[] {
    return [...this.visited];
  }

  /** Everything that happened in the scenario, oldest first, with virtual times from its start. */
  timeline(): readonly TimelineEntry[] {
    return this.scenario.timeline();
  }

  /** The timeline as text (`+00:03.200  → POST /channels/c1/play media=...`). */
  formatTimeline(): string {
    return this.scenario.formatTimeline();
  }

  /** How and when the call ended; undefined while it goes on. */
  end(): CallEnd | undefined {
    if (this.endedAt === undefined || this.sessionOutcome === undefined || !this.sessionResult)
      return undefined;
    return {
      at: this.endedAt,
      status: this.sessionResult.status,
      by: this.sessionResult.by,
      session: this.sessionOutcome,
      ...(this.output ? { vars: this.output.vars } : {}),
      ...(this.output?.output ? { output: this.output.output } : {}),
      ...(this.output?.error ? { error: this.output.error } : {}),
    };
  }

  // --- Expectations -----------------------------------------------------------------------------

  private fail(expected: string, happened: string): never {
    return this.scenario.fail(expected, happened);
  }

  /** Says whose expectation failed when the scenario has several calls. */
  private whose(text: string): string {
    return this.scenario.callers.length > 1 ? `${this.name}: ${text}` : text;
  }

  /**
   * Checks that the flow made a REST action for this call (by now); returns the matching actions.
   * `times` asks for an exact count.
   *
   * @example
   * call.expectAction({ operation: 'channels.play', params: { media: /hello-world/ } });
   * call.expectAction('DELETE /channels/c1', { times: 1 });
   */
  expectAction(matcher: ActionMatcher, options: { times?: number } = {}): RecordedAction[] {
    return checkAction(this.actions(), matcher, options, (e, h) => this.fail(this.whose(e), h));
  }

  /** Checks that the flow made no such REST action for this call (by now). */
  expectNoAction(matcher: ActionMatcher): void {
    checkNoAction(this.actions(), matcher, (e, h) => this.fail(this.whose(e), h));
  }

  /**
   * Checks that the flow entered every one of these states (in any order).
   * @example call.expectVisited('main-menu', 'voicemail');
   */
  expectVisited(...states: string[]): void {
    this.mustRunAFlow('visited states');
    this.checkStateNames(states);
    const missing = states.filter((s) => !this.visited.includes(s));
    if (missing.length > 0)
      this.fail(
        this.whose(`the flow to visit ${missing.join(', ')}`),
        `it visited ${this.visited.join(' → ') || 'nothing'}`,
      );
  }

  /** Checks that the flow never entered these states. */
  expectNotVisited(...states: string[]): void {
    this.mustRunAFlow('visited states');
    this.checkStateNames(states);
    const seen = states.filter((s) => this.visited.includes(s));
    if (seen.length > 0)
      this.fail(
        this.whose(`the flow never to visit ${seen.join(', ')}`),
        `it visited ${this.visited.join(' → ')}`,
      );
  }

  /**
   * Checks the exact sequence of states entered so far.
   * @example call.expectStates(['greet', 'main-menu', 'sales-menu']);
   */
  expectStates(sequence: readonly string[]): void {
    this.mustRunAFlow('states');
    this.checkStateNames(sequence);
    if (sequence.length !== this.visited.length || sequence.some((s, i) => this.visited[i] !== s))
      this.fail(
        this.whose(`the states ${sequence.join(' → ')}`),
        `the flow went ${this.visited.join(' → ') || 'nowhere'}`,
      );
  }

  /** Checks the state the flow is in now. */
  expectState(state: string): void {
    this.mustRunAFlow('its state');
    this.checkStateNames([state]);
    if (this.current() !== state)
      this.fail(this.whose(`the flow to be in ${state}`), `it is in ${this.current() ?? 'no state'}`);
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
   * Checks that the flow raised a user event for this call (the `userEvent` step), with these
   * variables (partial).
   * @example call.expectUserEvent('VoicemailLeft', { recording: /^voicemail\// });
   */
  expectUserEvent(name: string, variables?: Readonly<Record<string, Expected>>): RecordedAction[] {
    return checkUserEvent(this.actions(), name, variables, (e, h) => this.fail(this.whose(e), h));
  }

  /**
   * Lets virtual time run until the call ends (at most `within` after it arrived, default 1 h),
   * then checks how and when it ended.
   *
   * @example
   * await call.expectEnd({ status: 'completed', by: 'flow', within: '90s' });
   */
  async expectEnd(expected: EndExpectation = {}): Promise<CallEnd> {
    this.mustRunAFlow('its end');
    this.mustHaveArrived('ends');
    const within = expected.within === undefined ? 3_600_000 : toMs(expected.within, 'within');
    await this.scenario.runUntil(() => this.end() !== undefined, (this.arrivedAt ?? 0) + within);
    const end = this.end();
    const wanted = describeEnd(expected);
    if (!end) {
      return this.fail(
        this.whose(`the call to end${wanted}`),
        `it was still up at ${formatOffset(this.sinceArrival())}${this.clock.nextDue() === undefined ? ', with nothing left to happen (the flow waits for an event)' : ''}`,
      );
    }
    this.scenario.record({
      kind: 'end',
      at: end.at + (this.arrivedAt ?? 0),
      call: this.name,
      text: `call ended: ${formatCallEnd(end)}`,
    });
    const after = expected.after === undefined ? 0 : toMs(expected.after, 'after');
    const problems: string[] = [];
    if (expected.status !== undefined && end.status !== expected.status)
      problems.push(`status ${end.status}`);
    if (expected.by !== undefined && end.by !== expected.by) problems.push(`ended by the ${end.by}`);
    if (end.at > within || end.at < after) problems.push(`ended at ${formatOffset(end.at)}`);
    if (problems.length > 0) {
      const last = this.stepFailures[this.stepFailures.length - 1];
      this.fail(
        this.whose(`the call to end${wanted}`),
        `it ended with ${problems.join(', ')} (${formatCallEnd(end)}, at ${formatOffset(end.at)})${last ? `\nafter a step failure: ${formatFailure(last)}` : ''}`,
      );
    }
    return end;
  }

  /** Stops the scenario (its application and simulator). Safe to call twice. */
  async close(): Promise<void> {
    await this.scenario.close();
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
