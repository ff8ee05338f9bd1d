import {
  ErrorCode,
  eventResources,
  HttpError,
  isResourceGone,
  markCallGone,
  type ResourceKind,
  type RestClient,
  RingflowError,
  type StasisStart,
  type StreamEvent,
  type TimerHandle,
} from '@ringflow/client';
import type { Logger } from 'pino';
import { Observable, Subject } from 'rxjs';
import { type Actor, type AnyEventObject, type AnyStateMachine, createActor, type Snapshot } from 'xstate';
import { EffectRunner, type PersistedEffects } from '../engine/EffectRunner.ts';
import { RESUMED_EVENT } from '../engine/lowerEffects.ts';
import type { CallRecord, CallStore } from '../snapshot/CallRecord.ts';
import { checkRestoredResources } from '../snapshot/checkRestoredResources.ts';
import { registeredRevivers, reviveLiveValues, toPlainData } from '../snapshot/liveValues.ts';
import { RecordWriter } from '../snapshot/RecordWriter.ts';
import type {
  CallHandle,
  CallInput,
  CallRequestOptions,
  ResourceCleanup,
  ServerInfo,
} from '../call/CallHandle.ts';
import { isCallScoped } from '../call/callScopedSignal.ts';
import type { StepFailure } from '../call/StepFailure.ts';
import type { CallEnded, SessionOutcome } from './CallEnded.ts';
import { DigitBuffer } from './DigitBuffer.ts';
import { addressedTo, EventCopyFilter } from './EventCopyFilter.ts';
import { type HandleSession, SessionCallHandle } from './SessionCallHandle.ts';
import type { SessionHost } from './SessionHost.ts';
import { type MachineEventFilter, machineEventFilter } from './machineEventFilter.ts';
import { OwnedResources } from './OwnedResources.ts';
import { TrackingClock } from './TrackingClock.ts';

/** What the application tells a session about the call it serves. */
export interface CallSessionOptions {
  readonly channelId: string;
  readonly direction: 'inbound' | 'outbound';
  /**
   * The application the call belongs to: for an outbound call, the one it is originated into;
   * for an inbound one, learned from its StasisStart.
   */
  readonly app?: string;
  /**
   * The event stream carries several applications (or subscribeAll): the server may send one
   * copy of an event per application, and the session must take each event once.
   */
  readonly sharedStream?: boolean;
  /** Picks the machine once the channel enters the application. */
  readonly machineFor: (start: StasisStart) => AnyStateMachine;
  /**
   * Where the call's record is written after each step, so another process can take the call
   * over (see {@link CallRecord}); none: nothing is written.
   */
  readonly store?: CallStore;
  /** Called once when the session has ended and released everything, with how the call ended. */
  readonly onEnded: (session: CallSession, ended: CallEnded) => void;
}

/** Operations after which the main channel is on its way out of the application. */
const LEAVING_OPERATIONS = new Set([
  'channels.hangup',
  'channels.continueInDialplan',
  'channels.move',
  'channels.redirect',
]);

/**
 * How long a call whose channel left the application waits for its requests still in flight
 * (whose replies may bring the machine to its final state) before its machine is stopped anyway.
 */
const CLOSING_GRACE_MS = 5000;

/**
 * The reason the call's signal aborts when the session ends. One shared error: building one per
 * call (a `RingflowError` with its stack trace) showed up in load profiles, and whoever sees it
 * only needs to know that the call is over (the session's `result` says how it ended).
 */
const CALL_ENDED: RingflowError = new RingflowError(
  ErrorCode.ABORTED,
  'the call has ended; its pending requests and waits were cancelled. Check call.ended before sending.',
);

/**
 * Events the server addresses to one application only (never copied to the others), so a copy
 * for another application is the only one there is.
 */
const APP_ADDRESSED = new Set([
  'StasisStart',
  'StasisEnd',
  'ChannelUserevent',
  'ApplicationMoveFailed',
  'ApplicationReplaced',
]);

/** Operations that start a live recording named by their `name` parameter. */
const RECORD_OPERATIONS = new Set(['channels.record', 'bridges.record']);

/** The `status` a machine's output reports (compiled flows do: completed, recovered, failed...). */
function resultOf(output: unknown): string | undefined {
  const status = (output as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'string' ? status : undefined;
}

/** The state a machine's output says it ended in (compiled flows: their last flow state). */
function finalState(output: unknown): string | undefined {
  const state = (output as { state?: unknown } | null | undefined)?.state;
  return typeof state === 'string' ? state : undefined;
}

function eventChannelId(event: StreamEvent): string | undefined {
  const channel = (event as { channel?: { id?: unknown } }).channel;
  return typeof channel?.id === 'string' ? channel.id : undefined;
}

/**
 * One call: its main channel, the resources it created, one XState actor running the call's
 * machine, and the RxJS stream of its events. Created when a channel enters the application
 * (inbound) or just before the application originates one (outbound: owned first, then created).
 * Ends on StasisEnd or ChannelDestroyed of its channel and then releases every route,
 * subscription, timer and pending request.
 *
 * Sessions are made by the application; machines see them through their {@link CallHandle}.
 */
export class CallSession implements HandleSession {
  readonly id: string;
  readonly channelId: string;
  readonly direction: 'inbound' | 'outbound';
  readonly server: ServerInfo;
  /** Resolves with the outcome once the session has ended and released everything. */
  readonly done: Promise<SessionOutcome>;
  private readonly host: SessionHost;
  private readonly options: CallSessionOptions;
  /** The call's clock: its timers are cleared when the call ends (for the handle). */
  readonly clock: TrackingClock;
  /** The type-ahead buffer of the call's DTMF digits (for the handle). */
  readonly digits = new DigitBuffer();
  /**
   * Aborted when the call ends; made on first use (most calls never ask for it, and an
   * AbortController with its EventTarget was a visible share of the memory per call).
   */
  private abort: AbortController | undefined;
  /**
   * Cancels the requests in flight that were sent with a signal of their own (a step's): each has
   * one controller, aborted by that signal or by the end of the call (see {@link send}).
   */
  private requestControllers: Set<AbortController> | undefined;
  /** The call's events for `events$` subscribers; made when the first one subscribes. */
  private events: Subject<StreamEvent> | undefined;
  private eventsObservable: Observable<StreamEvent> | undefined;
  private readonly owned: OwnedResources;
  /** Channels of the call found gone (404); made on the first one. */
  private gone: Set<string> | undefined;
  /** Channels of the call in its own application (its copy of their events is certain to come). */
  private inOwnApp: Set<string> | undefined;
  private readonly copies: EventCopyFilter | undefined;
  private app: string | undefined;
  /** The call's logger, made the first time the call logs (see {@link callLogger}). */
  private childLogger: Logger | undefined;
  /** The application bound to the call's log records: the one its StasisStart named. */
  private logApp: string | undefined;
  private actor: Actor<AnyStateMachine> | undefined;
  /** The event types some state of the machine handles: the others are not sent to it. */
  private accepts: MachineEventFilter | undefined;
  private handle: CallHandle | undefined;
  private subscriptions = 0;
  private pending = 0;
  private leaving = false;
  /**
   * Started from a channel listing after a gap, not from its StasisStart: the StasisStart may
   * still arrive (sent on the new connection before the listing's reply came) and is a repeat.
   */
  private adopted: 'no' | 'awaiting-start' | 'start-seen' = 'no';
  /** The channel left the application; the session ends with this outcome once settled. */
  private closing: SessionOutcome | undefined;
  private settleTimer: TimerHandle | undefined;
  private outcome: SessionOutcome | undefined;
  private ending: CallEnded | undefined;
  private startedAt: number;
  private cause: { cause?: number; causeText?: string } = {};
  /** The last step failure the call's logic reported, and how many it reported. */
  private lastFailure: StepFailure | undefined;
  private failures = 0;
  private resolveDone!: (outcome: SessionOutcome) => void;
  /** Writes the call's record to the application's store (only with one). */
  private readonly recorder: RecordWriter | undefined;

  constructor(host: SessionHost, options: CallSessionOptions) {
    this.host = host;
    this.options = options;
    this.id = options.channelId;
    this.channelId = options.channelId;
    this.direction = options.direction;
    this.server = host.server;
    this.clock = new TrackingClock(host.clock);
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    this.app = options.app;
    this.startedAt = this.clock.now();
    this.copies = options.sharedStream ? new EventCopyFilter() : undefined;
    const { router } = host;
    const asteriskId = this.server.asteriskId;
    this.owned = new OwnedResources({
      add: (kind, id) => router.add(asteriskId, kind, id, this),
      remove: (kind, id) => router.remove(asteriskId, kind, id, this),
    });
    this.recorder = options.store
      ? new RecordWriter(
          options.store,
          this.id,
          () => this.record(),
          () => this.callLogger,
        )
      : undefined;
    this.own('channel', options.channelId, false);
  }

  /**
   * The call's logger: one pino child of the runtime's (call id, server, and the application once
   * the call started), made on first use. At a production level most calls log nothing, and a
   * child per call was a visible share of the memory per call.
   */
  get callLogger(): Logger {
    if (this.childLogger === undefined) {
      // A server link's logger already carries `server`: binding it again would write the key twice.
      const bound = 'server' in this.host.logger.bindings();
      this.childLogger = this.host.logger.child({
        call: this.channelId,
        ...(bound ? {} : { server: this.server.name }),
        ...(this.logApp === undefined ? {} : { app: this.logApp }),
      });
    }
    return this.childLogger;
  }

  /** Logs one record if the runtime's logger takes its level; only then is the call's logger made. */
  private log(level: 'debug' | 'info' | 'warn' | 'error', message: string, details?: object): void {
    if (!this.host.logger.isLevelEnabled(level)) return;
    if (details === undefined) this.callLogger[level](message);
    else this.callLogger[level](details, message);
  }

  /** The application the call belongs to (known once its channel entered it, or at originate). */
  get application(): string | undefined {
    return this.app;
  }

  /** True once the session has ended. */
  get ended(): boolean {
    return this.outcome !== undefined;
  }

  /** The machine's actor, once the channel has entered the application. */
  get machine(): Actor<AnyStateMachine> | undefined {
    return this.actor;
  }

  /** How the call ended (outcome, the machine's final state and output), once it has. */
  get result(): CallEnded | undefined {
    return this.ending;
  }

  /** The handle the machine got, once started. */
  get call(): CallHandle | undefined {
    return this.handle;
  }

  /** Live counts, for leak checks: subscriptions to the call's events, timers, requests, routes. */
  counters(): {
    subscriptions: number;
    timers: number;
    pendingRequests: number;
    routes: number;
    digitWaiters: number;
  } {
    return {
      subscriptions: this.subscriptions,
      timers: this.clock.pendingTimers,
      pendingRequests: this.pending,
      routes: this.ended ? 0 : this.owned.size,
      digitWaiters: this.digits.waiting,
    };
  }

  /** Ids of the channels this session owns (its own and the ones it created). */
  ownedChannels(): string[] {
    return this.owned.idsOf('channel');
  }

  /** Ids of the bridges this session owns or joined. */
  ownedBridges(): string[] {
    return this.owned.idsOf('bridge');
  }

  own(kind: ResourceKind, id: string, cleanup: ResourceCleanup): void {
    if (this.ended) return;
    this.owned.own(kind, id, cleanup);
    this.recorder?.changed();
  }

  disown(kind: ResourceKind, id: string): void {
    if (kind === 'channel' && id === this.channelId) return; // the main channel goes with the session
    if (this.owned.disown(kind, id)) this.recorder?.changed();
  }

  /** Receives one event the router found to be about this call. */
  deliver(event: StreamEvent): void {
    if (this.ended) return;
    const channelId = eventChannelId(event);
    if (this.copies && !this.takesCopy(event, channelId)) return;
    const isMain = channelId === this.channelId;
    if (event.type === 'StasisStart' && isMain && !this.actor) {
      this.begin(event as StasisStart);
      return;
    }
    if (event.type === 'StasisStart' && isMain && this.adopted === 'awaiting-start') {
      this.adopted = 'start-seen';
      this.log('debug', 'StasisStart of an adopted call arrived late; the call is already running');
      return;
    }
    if (event.type === 'ChannelDtmfReceived' && isMain) {
      const digit = (event as { digit?: unknown }).digit;
      if (typeof digit === 'string') this.digits.push(digit);
    }
    // The channel is leaving: a machine that ends on this event must not hang it up again.
    if (isMain && (event.type === 'StasisEnd' || event.type === 'ChannelDestroyed')) this.leaving = true;
    this.dispatch(event, channelId, isMain);
  }

  /** Gives an event to the call's subscribers and machine, then does the session's bookkeeping. */
  private dispatch(
    event: StreamEvent,
    channelId = eventChannelId(event),
    isMain = channelId === this.channelId,
  ): void {
    this.events?.next(event);
    this.tell(event);
    this.afterEvent(event, channelId, isMain);
  }

  /**
   * On a stream shared by several applications: takes the copy addressed to the call's own
   * application when one is certain to come (a channel of the call in its application, an event
   * not addressed to one application), else the first copy of each event, whichever application
   * it is addressed to. Each event reaches the machine once.
   */
  private takesCopy(event: StreamEvent, channelId: string | undefined): boolean {
    const to = addressedTo(event);
    if (this.app === undefined && event.type === 'StasisStart' && channelId === this.channelId) {
      this.app = to;
    }
    if (to !== undefined && to === this.app && channelId !== undefined) {
      if (event.type === 'StasisStart') {
        this.inOwnApp ??= new Set();
        this.inOwnApp.add(channelId);
      } else if (event.type === 'StasisEnd' || event.type === 'ChannelDestroyed')
        this.inOwnApp?.delete(channelId);
    }
    if (to !== this.app && !APP_ADDRESSED.has(event.type) && this.concernsOwnAppChannel(event)) {
      return false;
    }
    return this.copies?.accept(event) ?? true;
  }

  /**
   * True when the event is about a channel of the call that is in the call's own application
   * (its `channel`, or a playback or recording on it): that application is subscribed to the
   * channel, so its own copy of the event is certain to come.
   */
  private concernsOwnAppChannel(event: StreamEvent): boolean {
    const inOwnApp = this.inOwnApp;
    if (!inOwnApp || inOwnApp.size === 0) return false;
    for (const ref of eventResources(event)) {
      const direct = ref.via === 'channel' || ref.via.endsWith('target_uri');
      if (direct && ref.kind === 'channel' && inOwnApp.has(ref.id)) return true;
    }
    return false;
  }

  /** Bookkeeping once everyone has seen the event: end the call, forget finished resources. */
  private afterEvent(event: StreamEvent, channelId: string | undefined, isMain: boolean): void {
    switch (event.type) {
      case 'StasisStart':
        if (!isMain && channelId) this.owned.noteStarted('channel', channelId);
        return;
      case 'StasisEnd':
        if (isMain) this.finish(this.actor ? 'completed' : 'unanswered');
        return;
      case 'ChannelHangupRequest':
        if (isMain) this.noteCause(event);
        return;
      case 'ChannelDestroyed':
        if (isMain) {
          this.noteCause(event);
          this.finish(this.actor ? 'completed' : 'unanswered');
        } else if (channelId) this.disown('channel', channelId);
        return;
      case 'PlaybackFinished': {
        const id = (event as { playback?: { id?: unknown } }).playback?.id;
        if (typeof id === 'string') this.disown('playback', id);
        return;
      }
      case 'RecordingStarted': {
        const name = (event as { recording?: { name?: unknown } }).recording?.name;
        if (typeof name === 'string') this.owned.noteStarted('recording', name);
        return;
      }
      case 'RecordingFinished':
      case 'RecordingFailed': {
        const name = (event as { recording?: { name?: unknown } }).recording?.name;
        if (typeof name === 'string') this.disown('recording', name);
        return;
      }
      case 'BridgeDestroyed': {
        const id = (event as { bridge?: { id?: unknown } }).bridge?.id;
        if (typeof id === 'string') this.disown('bridge', id);
        return;
      }
      default:
        return;
    }
  }

  private noteCause(event: StreamEvent): void {
    const { cause, cause_txt: causeText } = event as { cause?: unknown; cause_txt?: unknown };
    if (typeof cause === 'number') this.cause = { ...this.cause, cause };
    if (typeof causeText === 'string') this.cause = { ...this.cause, causeText };
  }

  /**
   * The call's channel left the application (StasisEnd, ChannelDestroyed). The machine has been
   * given the event and may still reach its final state: the reply of the request that made the
   * channel leave (a hangup, a continue) usually arrives after its StasisEnd. So the session waits
   * for its requests in flight (at most {@link CLOSING_GRACE_MS}), then one tick of the clock for
   * their results to reach the machine, and only then stops it and ends.
   */
  private finish(outcome: SessionOutcome): void {
    if (this.ended || this.closing) return;
    if (this.actor?.getSnapshot().status !== 'active') {
      this.end(outcome);
      return;
    }
    this.closing = outcome;
    this.leaving = true;
    this.clock.setTimeout(() => this.end(outcome), CLOSING_GRACE_MS);
    this.settleClosing();
  }

  /** While closing: once no request is in flight, end on the next tick of the clock. */
  private settleClosing(): void {
    if (this.closing === undefined || this.ended || this.pending > 0 || this.settleTimer) return;
    const outcome = this.closing;
    this.settleTimer = this.clock.setTimeout(() => {
      this.settleTimer = undefined;
      if (this.pending === 0) this.end(outcome);
    }, 0);
  }

  /**
   * Gives an event to the machine while it runs, if some state of the machine handles its type
   * (see {@link machineEventFilter}). A machine in its final state is done with the call (the
   * session hangs up); XState would only warn on the console about such late events.
   */
  tell(event: AnyEventObject): void {
    if (this.ended || !this.accepts?.(event.type)) return;
    if (this.actor?.getSnapshot().status === 'active') this.actor.send(event);
  }

  /**
   * Starts a call whose channel is in the application but whose StasisStart never arrived (lost in
   * an event stream gap), from a StasisStart made of the server's channel listing. A StasisStart
   * arriving later for the channel is dropped, so the machine starts once.
   */
  adopt(start: StasisStart): void {
    if (this.ended || this.actor) return;
    this.adopted = 'awaiting-start';
    this.inOwnApp ??= new Set();
    this.inOwnApp.add(this.channelId);
    this.app ??= start.application;
    this.begin(start);
  }

  /** True when the call was started from a channel listing after a gap (see {@link adopt}). */
  get wasAdopted(): boolean {
    return this.adopted !== 'no';
  }

  /** The channel entered the application: start the machine. */
  private begin(start: StasisStart, restored?: CallRecord): void {
    this.app ??= start.application;
    this.logApp = start.application;
    this.childLogger = undefined; // made before the call started: without the application
    const handle = new SessionCallHandle(this, start);
    this.handle = handle;
    let machine: AnyStateMachine;
    try {
      machine = this.options.machineFor(start);
    } catch (error) {
      this.log('error', 'could not pick a machine for the call; hanging up', { err: error });
      this.fail();
      return;
    }
    this.accepts = machineEventFilter(machine);
    const input: CallInput = { call: handle };
    const actor = createActor(machine, {
      input,
      ...(restored ? { snapshot: this.revive(restored.machine, handle) } : {}),
      clock: this.clock,
      id: `call:${this.channelId}`,
      logger: (...args: unknown[]) => this.log('debug', 'machine log', { machineLog: args }),
    });
    this.actor = actor;
    actor.subscribe({
      complete: () => this.machineDone(),
      error: (error) => {
        this.log('error', 'call machine failed; hanging up', { err: error });
        this.fail();
      },
    });
    const recorder = this.recorder;
    if (recorder) actor.subscribe(() => recorder.changed());
    if (restored) {
      this.log('info', 'call restored from its record', {
        args: start.args,
        direction: this.direction,
        writtenAt: restored.writtenAt,
        state: actor.getSnapshot().value,
      });
      actor.start();
      this.tell({ type: RESUMED_EVENT });
      return;
    }
    this.log('info', 'call started', { args: start.args, direction: this.direction });
    actor.start();
  }

  /** A record's machine snapshot with this process's live objects in place of its markers. */
  private revive(data: unknown, handle: CallHandle): Snapshot<unknown> {
    return reviveLiveValues(data, {
      ...registeredRevivers(handle),
      call: () => handle,
      effects: (marker) => EffectRunner.restored(this.clock, marker as PersistedEffects),
    }) as Snapshot<unknown>;
  }

  /**
   * The call as plain data (see {@link CallRecord}): what another process needs to take it
   * over. Undefined before the machine started, and once the call has ended.
   */
  record(): CallRecord | undefined {
    const actor = this.actor;
    const handle = this.handle;
    if (!actor || !handle || this.ended) return undefined;
    return {
      version: 1,
      callId: this.id,
      channelId: this.channelId,
      asteriskId: this.server.asteriskId,
      server: this.server.name,
      app: this.app,
      direction: this.direction,
      startedAt: this.startedAt,
      writtenAt: this.clock.now(),
      start: handle.start,
      owned: this.owned.persist(),
      digits: this.digits.peek(),
      failures: this.failures,
      ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}),
      machine: toPlainData(actor.getPersistedSnapshot()),
    };
  }

  /**
   * Takes over a call from its record (written by another process, or by an application of this
   * one that let it go with `detach()`): the resources it owned are its again, its machine goes
   * on from its snapshot (effects and timers that were under way are taken up by the engine, see
   * `ResumeRule`), and what its resources did while nobody followed them is looked up on the
   * server and told to the machine (see {@link checkRestoredResources}).
   */
  restore(record: CallRecord): void {
    if (this.ended || this.actor) return;
    this.app ??= record.app;
    this.startedAt = record.startedAt;
    this.failures = record.failures;
    this.lastFailure = record.lastFailure;
    for (const { kind, id, cleanup, started } of record.owned) {
      this.owned.own(kind, id, cleanup);
      if (started) this.owned.noteStarted(kind, id);
    }
    for (const digit of record.digits) this.digits.push(digit);
    this.inOwnApp ??= new Set();
    this.inOwnApp.add(this.channelId);
    this.begin(record.start, record);
    if (this.ended) return;
    checkRestoredResources({
      channelId: this.channelId,
      app: this.app,
      client: this.host.client,
      owned: () => (this.ended ? [] : this.owned.list()),
      dispatch: (event) => {
        if (!this.ended) this.dispatch(event);
      },
      mainGone: () => this.end('reconciled'),
      bridgeGone: (bridgeId) => this.disown('bridge', bridgeId),
    }).then(
      (told) => {
        if (told.length > 0) this.log('info', 'restored call: told the machine what it missed', { told });
      },
      (error: unknown) =>
        this.log('warn', 'restored call: could not check its resources on the server', { err: error }),
    );
  }

  /** The REST client of the call's server (untracked). */
  get client(): RestClient {
    return this.host.client;
  }

  /** A fresh id for a resource of this call. */
  pickId(kind: 'channel' | 'bridge' | 'playback' | 'recording' | 'snoop'): string {
    return this.host.pickId(kind);
  }

  /** Aborted when the call ends (made on first use). */
  get signal(): AbortSignal {
    this.abort ??= new AbortController();
    if (this.ended && !this.abort.signal.aborted) this.abort.abort(CALL_ENDED);
    return this.abort.signal;
  }

  /** Every event about the call's resources; completes when the call ends. */
  get events$(): Observable<StreamEvent> {
    this.eventsObservable ??= new Observable<StreamEvent>((subscriber) => {
      if (this.ended) {
        subscriber.complete();
        return;
      }
      this.events ??= new Subject<StreamEvent>();
      this.subscriptions++;
      const inner = this.events.subscribe(subscriber);
      return () => {
        this.subscriptions--;
        inner.unsubscribe();
      };
    });
    return this.eventsObservable;
  }

  /**
   * Sends one request for the call: counted while pending, cancelled when the call ends; a 404
   * on one of the call's channels tells the machine `call.gone`.
   */
  async send(
    operation: string,
    params: Readonly<Record<string, unknown>>,
    options?: CallRequestOptions,
  ): Promise<unknown> {
    if (this.ended) {
      throw new RingflowError(
        ErrorCode.CLOSED,
        `call ${this.channelId} has ended; ${operation} was not sent. Check call.ended before sending.`,
      );
    }
    const channelId = typeof params.channelId === 'string' ? params.channelId : undefined;
    // A request that takes the call's channel out of the application (hang up, continue...) is
    // not cancelled when the call ends: the end is its expected effect, and its StasisEnd usually
    // arrives before its reply. Cancelling an HTTP/1.1 request in flight closes its pooled
    // connection, so every call would open a new one. Its timeout still bounds it.
    const leavesCall = channelId === this.channelId && LEAVING_OPERATIONS.has(operation);
    const caller = leavesCall ? undefined : options?.signal;
    // A request with a signal of its own (a step's) is cancelled by it or by the end of the call:
    // it gets a controller the session aborts at the end (no listener on the call's signal per
    // request, which Node's EventTarget makes costly). The call's own signal, one already
    // aborted, or a step's signal of this call's machine (aborted when the session stops the
    // machine at the end, see markCallScoped) is used as is. A request without a signal is not cancelled at the end: its reply
    // (or its timeout) comes soon, and the stopped machine ignores it; cancelling would only
    // close a pooled connection.
    const own =
      caller && caller !== this.abort?.signal && !caller.aborted && !isCallScoped(caller, this.handle)
        ? new AbortController()
        : undefined;
    const onCallerAbort = own && caller ? () => own.abort(caller.reason) : undefined;
    if (own && caller && onCallerAbort) {
      caller.addEventListener('abort', onCallerAbort, { once: true });
      this.requestControllers ??= new Set();
      this.requestControllers.add(own);
    }
    const signal = own?.signal ?? caller;
    this.pending++;
    try {
      const result = await this.host.client.request(operation, params, {
        ...(signal ? { signal } : {}),
        ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      if (channelId === this.channelId && LEAVING_OPERATIONS.has(operation)) this.leaving = true;
      if (RECORD_OPERATIONS.has(operation) && typeof params.name === 'string')
        this.owned.noteStarted('recording', params.name);
      return result;
    } catch (error) {
      if (channelId && isResourceGone(error) && this.owned.has('channel', channelId)) {
        markCallGone(error);
        this.channelGone(channelId, operation);
      } else if (this.closing !== undefined && error instanceof HttpError && error.status < 500) {
        // The call's channel has left the application: a refusal now (a user event whose source
        // channel is gone, 409 "not in Stasis") is a consequence of that, not a machine failure.
        markCallGone(error);
      }
      throw error;
    } finally {
      if (own && caller && onCallerAbort) {
        caller.removeEventListener('abort', onCallerAbort);
        this.requestControllers?.delete(own);
      }
      this.pending--;
      if (this.closing !== undefined) this.settleClosing();
    }
  }

  /**
   * A bridge this call shared with others (a conference room) outlives the call unless nobody is
   * left in it. Each participant checks as it ends, after its own channel left, so the last one to
   * leave finds the room empty. Channels that belong to no live session of this application are
   * on their way out too (they are counted out: at stop, every call ends at once and each would
   * otherwise see the others still in the room).
   */
  private closeRoomIfEmpty(bridgeId: string): void {
    const { client, router } = this.host;
    const asteriskId = this.server.asteriskId;
    this.host.cleanup(
      `close room ${bridgeId} if empty`,
      async () => {
        const bridge = await client.bridge(bridgeId).get();
        const present = bridge.channels.filter((id) => router.ownersOf(asteriskId, 'channel', id).length > 0);
        if (present.length > 0) return;
        this.log('debug', 'last call left the room; destroying it', { bridge: bridgeId });
        await client.bridge(bridgeId).destroy();
      },
      { kind: 'bridge', id: bridgeId },
    );
  }

  /**
   * A step of the call's logic failed (see {@link StepFailure}): a line with every fact of it
   * (`warn`, or `info` when the step routed the failure itself), a count by flow, step and
   * status, and the last one kept for the call's end.
   */
  reportFailure(failure: StepFailure): void {
    if (this.ended) return;
    this.failures++;
    // The one the call's end shows: the last one nothing in the step handled, else the last.
    if (failure.unhandled || !this.lastFailure?.unhandled) this.lastFailure = failure;
    this.host.metrics.stepFailed(failure.flow, failure.step, failure.status);
    // A failure the step routes itself was expected by the flow's author: info, not warn.
    this.log(
      failure.unhandled ? 'warn' : 'info',
      `step failed: ${failure.step} in ${failure.flow}/${failure.state}; ${failure.next}`,
      { failure },
    );
  }

  private channelGone(channelId: string, operation: string): void {
    this.gone ??= new Set();
    if (this.gone.has(channelId)) return;
    this.gone.add(channelId);
    if (channelId === this.channelId) this.leaving = true;
    this.log('debug', 'channel is gone', { channel: channelId, operation });
    this.tell({ type: 'call.gone', channelId, operation });
  }

  /**
   * After an event stream gap: forget the channels and bridges of this call that the server no
   * longer has, telling the machine `call.gone` for lost channels. The main channel is alive.
   */
  reconcile(liveChannels: ReadonlySet<string>, liveBridges: ReadonlySet<string>): void {
    for (const { kind, id } of this.owned.list()) {
      if (kind === 'channel' && id !== this.channelId && !liveChannels.has(id)) {
        this.disown('channel', id);
        this.channelGone(id, 'reconcile');
      } else if (kind === 'bridge' && !liveBridges.has(id)) {
        this.disown('bridge', id);
      }
    }
  }

  /** The machine reached a final state: hang up unless the channel is already leaving. */
  private machineDone(): void {
    if (this.closing !== undefined) {
      this.end(this.closing);
      return;
    }
    if (this.ended || this.leaving) return;
    this.log('debug', 'machine finished with the channel still in the application; hanging up');
    this.leaving = true;
    this.send('channels.hangup', { channelId: this.channelId }).catch((error: unknown) => {
      if (isResourceGone(error) || this.ended) return;
      // The caller must not stay connected to nothing: the session ends, and the hangup goes on
      // as a cleanup request, retried (a lost reply's hangup done meanwhile answers 404: done).
      this.log('warn', 'hangup after the machine finished failed; retrying it as cleanup', { err: error });
      this.leaving = false;
      this.end('failed', true);
    });
  }

  private fail(): void {
    if (this.ended) return;
    const hangUp = !this.leaving && !this.gone?.has(this.channelId);
    this.end('failed', hangUp);
  }

  /**
   * Ends the session: stops the machine, cancels requests, clears timers, completes the event
   * stream, removes routes, and cleans up on the server what the call created.
   * @param hangUpMain also hang up the main channel (drain deadline, failures, stop).
   */
  end(outcome: SessionOutcome, hangUpMain = false): void {
    if (this.ended) return;
    const detached = outcome === 'detached';
    // Handed over: the last record is written before the machine stops; ended here: removed.
    if (detached) this.recorder?.flush();
    this.recorder?.close(!detached);
    this.outcome = outcome;
    const snapshot = this.actor?.getSnapshot();
    this.actor?.stop();
    this.abort?.abort(CALL_ENDED);
    if (this.requestControllers) {
      for (const controller of this.requestControllers) controller.abort(CALL_ENDED);
      this.requestControllers.clear();
    }
    this.clock.clearAll();
    this.events?.complete();
    const client = this.host.client;
    // Live recordings first, before their bridge is destroyed: a stop keeps what was recorded.
    // Bridge recordings would otherwise run on after the call (a bridge the call does not own
    // outlives it). A channel recording ends with its channel (its RecordingFinished comes before
    // the StasisEnd, so it is no longer listed); one still listed gets a stop, 404 = done.
    // A call handed over to another process keeps everything on the server.
    const owned = detached ? [] : this.owned.list();
    for (const { kind, id, cleanup, started } of owned) {
      if (kind === 'recording' && cleanup && started)
        this.host.cleanup(`stop recording ${id}`, () => client.recording(id).stop());
    }
    this.owned.releaseRoutes();
    for (const { kind, id, cleanup } of owned) {
      const main = kind === 'channel' && id === this.channelId;
      // A main channel already on its way out (left, hung up, continued) is not hung up again.
      const gone = this.gone?.has(id) === true;
      if (main ? hangUpMain && !this.leaving && !gone : cleanup && !gone) {
        if (kind === 'channel')
          this.host.cleanup(`hang up ${id}`, () => client.channel(id).hangup(), { kind, id });
        if (kind === 'bridge' && cleanup === 'when-empty') this.closeRoomIfEmpty(id);
        else if (kind === 'bridge')
          this.host.cleanup(`destroy bridge ${id}`, () => client.bridge(id).destroy(), { kind, id });
      }
    }
    const endedAt = this.clock.now();
    const status = snapshot?.status;
    const output = status === 'done' ? snapshot?.output : undefined;
    const result = resultOf(output);
    this.ending = {
      callId: this.id,
      app: this.app,
      server: this.server.name,
      direction: this.direction,
      outcome,
      machineStatus: status === 'done' || status === 'error' || status === 'active' ? status : 'none',
      output,
      snapshotValue: snapshot?.value,
      ...(result !== undefined ? { result } : {}),
      ...(this.lastFailure ? { failure: this.lastFailure } : {}),
      failures: this.failures,
      ...this.cause,
      startedAt: this.startedAt,
      endedAt,
      durationMs: endedAt - this.startedAt,
    };
    if (this.actor) this.host.metrics.callResults.inc({ app: this.app ?? '', result: result ?? 'none' });
    // A call whose logic failed, or got through only by its error handler, is not a plain success.
    const troubled =
      this.lastFailure?.unhandled === true ||
      result === 'failed' ||
      result === 'recovered' ||
      outcome === 'failed';
    this.log(troubled ? 'warn' : 'info', 'call ended', {
      outcome,
      machine: this.ending.machineStatus,
      ...(result !== undefined ? { result } : {}),
      ...(status === 'active' || status === 'done' ? { state: finalState(output) ?? snapshot?.value } : {}),
      ...(this.lastFailure ? { failures: this.failures, failure: this.lastFailure } : {}),
    });
    this.options.onEnded(this, this.ending);
    this.resolveDone(outcome);
  }
}
