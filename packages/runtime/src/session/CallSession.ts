import type { CallQueue } from '../queue/CallQueue.ts';
import type { QueueSettings } from '../queue/QueueState.ts';
import {
  ErrorCode,
  HttpError,
  isEventType,
  isResourceGone,
  markCallGone,
  type ResourceKind,
  type RestClient,
  RingflowError,
  type StasisStart,
  type StreamEvent,
} from '@ringflow/client';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import { type Actor, type AnyEventObject, type AnyStateMachine, createActor, type Snapshot } from 'xstate';
import type {
  CallHandle,
  CallInput,
  CallRequestOptions,
  ResourceCleanup,
  ServerInfo,
} from '../call/CallHandle.ts';
import { bindCallToSystem } from '../call/callOfSystem.ts';
import { isCallScoped } from '../call/callScopedSignal.ts';
import type { StepFailure } from '../call/StepFailure.ts';
import { EffectRunner, type PersistedEffects } from '../engine/EffectRunner.ts';
import { RESUMED_EVENT } from '../engine/lowerEffects.ts';
import type { CallRecord, CallStore } from '../snapshot/CallRecord.ts';
import { checkRestoredResources } from '../snapshot/checkRestoredResources.ts';
import { registeredRevivers, reviveLiveValues, toPlainData } from '../snapshot/liveValues.ts';
import { RecordWriter } from '../snapshot/RecordWriter.ts';
import type { CallEnded, SessionOutcome } from './CallEnded.ts';
import { CallEventStream } from './CallEventStream.ts';
import { CallReport } from './CallReport.ts';
import { CallRequests } from './CallRequests.ts';
import { DigitBuffer } from './DigitBuffer.ts';
import { ResumeNotes } from './ResumeNotes.ts';
import { type MachineEventFilter, machineEventFilter } from './machineEventFilter.ts';
import { OwnedResources } from './OwnedResources.ts';
import { releaseOnServer } from './releaseOnServer.ts';
import { type HandleSession, SessionCallHandle } from './SessionCallHandle.ts';
import type { SessionHost } from './SessionHost.ts';
import type { EventOwner } from './SessionRouter.ts';
import type { SessionPhase } from './SessionPhase.ts';
import { SharedStreamCopies } from './SharedStreamCopies.ts';
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
  /**
   * Where the call's record is written after each step, so another process can take the call
   * over (see {@link CallRecord}); none: nothing is written.
   */
  readonly store?: CallStore;
  /** Picks the machine once the channel enters the application. */
  readonly machineFor: (start: StasisStart) => AnyStateMachine;
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

/** Operations that start a live recording named by their `name` parameter. */
const RECORD_OPERATIONS = new Set(['channels.record', 'bridges.record']);

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

/** The phases without data of their own, shared by every session. */
const WAITING: SessionPhase = { name: 'waiting' };
const RUNNING: SessionPhase = { name: 'running', lateStartExpected: false };
const RUNNING_LATE_START_EXPECTED: SessionPhase = { name: 'running', lateStartExpected: true };

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
 * Its life is one explicit {@link SessionPhase}; each concern beside it has a class of its own:
 * the resources it owns ({@link OwnedResources}), its requests in flight ({@link CallRequests}),
 * the copies it takes on a shared stream ({@link SharedStreamCopies}), what its end says
 * ({@link CallReport}), its record for another process ({@link RecordWriter}), and the cleanup on
 * the server at the end ({@link releaseOnServer}).
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
  /** The call's clock: its timers are cleared when the call ends (for the handle). */
  readonly clock: TrackingClock;
  /** The type-ahead buffer of the call's DTMF digits (for the handle). */
  readonly digits = new DigitBuffer();
  #resumeNotes: ResumeNotes | undefined;
  /** What the call actors under way started on the server (for the handle; see ResumeNotes). */
  get resumeNotes(): ResumeNotes {
    this.#resumeNotes ??= new ResumeNotes();
    return this.#resumeNotes;
  }
  private readonly host: SessionHost;
  private readonly options: CallSessionOptions;
  private phase: SessionPhase = WAITING;
  /**
   * The call's channel is on its way out of the application (its StasisEnd came, or a hangup or
   * continue was sent): nothing must hang it up again.
   */
  private leaving = false;
  /** Started from a channel listing after a gap (see {@link adopt}). */
  private adopted = false;
  private readonly owned: OwnedResources<EventOwner>;
  private readonly requests: CallRequests;
  /** What the call's end will say; made with the first fact it needs (most live calls have none). */
  private reportMade: CallReport | undefined;
  private readonly copies: SharedStreamCopies | undefined;
  /** Writes the call's record to the application's store (only with one). */
  private readonly recorder: RecordWriter | undefined;
  /**
   * Aborted when the call ends; made on first use (most calls never ask for it, and an
   * AbortController with its EventTarget was a visible share of the memory per call).
   */
  private abort: AbortController | undefined;
  /** The call's `events$`; made when first asked for (most compiled flows never subscribe). */
  private eventStream: CallEventStream | undefined;
  /** Channels of the call found gone (404); made on the first one. */
  private gone: Set<string> | undefined;
  private app: string | undefined;
  /** The call's logger, made the first time the call logs (see {@link callLogger}). */
  private childLogger: Logger | undefined;
  /** The application bound to the call's log records: the one its StasisStart named. */
  private logApp: string | undefined;
  private actor: Actor<AnyStateMachine> | undefined;
  /** The event types some state of the machine handles: the others are not sent to it. */
  private accepts: MachineEventFilter | undefined;
  private handle: CallHandle | undefined;
  private ending: CallEnded | undefined;
  private startedAt: number;
  private resolveDone!: (outcome: SessionOutcome) => void;

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
    this.copies = options.sharedStream ? new SharedStreamCopies() : undefined;
    this.owned = new OwnedResources(host.router, this.server.asteriskId, this);
    this.requests = new CallRequests(host.client, this);
    this.recorder = options.store
      ? new RecordWriter(
          options.store,
          this.id,
          () => this.record(),
          () => this.callLogger,
          (error) => {
            this.log('warn', 'another process took the call over; this one lets it go untouched', {
              err: error,
            });
            this.end('detached');
          },
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

  /** What the call's end will say (see {@link CallReport}), made on first use. */
  private report(): CallReport {
    this.reportMade ??= new CallReport();
    return this.reportMade;
  }

  /** True once the session has ended. */
  get ended(): boolean {
    return this.phase.name === 'ended';
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

  /** True when the call was started from a channel listing after a gap (see {@link adopt}). */
  get wasAdopted(): boolean {
    return this.adopted;
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
      subscriptions: this.eventStream?.subscriptions ?? 0,
      timers: this.clock.pendingTimers,
      pendingRequests: this.requests.inFlight,
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

  // ── Events ─────────────────────────────────────────────────────────────────────────────────

  /** Receives one event the router found to be about this call. */
  deliver(event: StreamEvent): void {
    if (this.ended) return;
    const channelId = eventChannelId(event);
    const isMain = channelId === this.channelId;
    if (this.copies) {
      if (this.app === undefined && isMain && isEventType(event, 'StasisStart')) this.app = event.application;
      if (!this.copies.takes(event, channelId, this.app)) return;
    }
    if (isMain && isEventType(event, 'StasisStart')) {
      if (this.phase.name === 'waiting') {
        this.begin(event);
        return;
      }
      if (this.phase.name === 'running' && this.phase.lateStartExpected) {
        this.phase = RUNNING;
        this.log('debug', 'StasisStart of an adopted call arrived late; the call is already running');
        return;
      }
    }
    if (isMain && isEventType(event, 'ChannelDtmfReceived')) this.digits.push(event.digit);
    // The channel is leaving: a machine that ends on this event must not hang it up again.
    if (isMain && isEventType(event, 'StasisEnd', 'ChannelDestroyed')) this.leaving = true;
    this.dispatch(event, channelId, isMain);
  }

  /** Gives an event to the call's subscribers and machine, then does the session's bookkeeping. */
  private dispatch(
    event: StreamEvent,
    channelId = eventChannelId(event),
    isMain = channelId === this.channelId,
  ): void {
    this.eventStream?.next(event);
    this.tell(event);
    this.afterEvent(event, channelId, isMain);
  }

  /** Bookkeeping once everyone has seen the event: end the call, forget finished resources. */
  private afterEvent(event: StreamEvent, channelId: string | undefined, isMain: boolean): void {
    if (isEventType(event, 'StasisStart')) {
      if (!isMain && channelId) this.owned.noteStarted('channel', channelId);
    } else if (isEventType(event, 'StasisEnd')) {
      if (isMain) this.finish(this.actor ? 'completed' : 'unanswered');
    } else if (isEventType(event, 'ChannelHangupRequest')) {
      if (isMain) this.report().noteCause(event);
    } else if (isEventType(event, 'ChannelDestroyed')) {
      if (isMain) {
        this.report().noteCause(event);
        this.finish(this.actor ? 'completed' : 'unanswered');
      } else if (channelId) this.disown('channel', channelId);
    } else if (isEventType(event, 'PlaybackFinished')) {
      this.disown('playback', event.playback?.id);
    } else if (isEventType(event, 'RecordingStarted')) {
      this.owned.noteStarted('recording', event.recording?.name);
    } else if (isEventType(event, 'RecordingFinished', 'RecordingFailed')) {
      this.disown('recording', event.recording?.name);
    } else if (isEventType(event, 'BridgeDestroyed')) {
      this.disown('bridge', event.bridge?.id);
    }
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

  // ── Starting: from a StasisStart, a channel listing, or a record ───────────────────────────

  /**
   * Starts a call whose channel is in the application but whose StasisStart never arrived (lost in
   * an event stream gap), from a StasisStart made of the server's channel listing. A StasisStart
   * arriving later for the channel is dropped, so the machine starts once.
   */
  adopt(start: StasisStart): void {
    if (this.phase.name !== 'waiting') return;
    this.adopted = true;
    this.copies?.noteInOwnApp(this.channelId);
    this.app ??= start.application;
    this.begin(start);
    // begin() moved the phase on (read again: the check above narrowed it to 'waiting').
    if ((this.phase as SessionPhase).name === 'running') this.phase = RUNNING_LATE_START_EXPECTED;
  }

  /**
   * Takes over a call from its record (written by another process, or by an application of this
   * one that let it go with `detach()`): the resources it owned are its again, its machine goes
   * on from its snapshot (effects and timers that were under way are taken up by the engine, see
   * `ResumeRule`), and what its resources did while nobody followed them is looked up on the
   * server and told to the machine (see {@link checkRestoredResources}).
   */
  restore(record: CallRecord): void {
    if (this.phase.name !== 'waiting') return;
    this.app ??= record.app;
    this.startedAt = record.startedAt;
    this.report().restore(record.failures, record.lastFailure);
    for (const { kind, id, cleanup, started } of record.owned) {
      this.owned.own(kind, id, cleanup);
      if (started) this.owned.noteStarted(kind, id);
    }
    for (const digit of record.digits) this.digits.push(digit);
    this.resumeNotes.restore(record.started);
    this.copies?.noteInOwnApp(this.channelId);
    this.begin(record.start, record);
    if (this.ended) return;
    checkRestoredResources({
      channelId: this.channelId,
      app: this.app,
      client: this.host.client,
      now: () => this.clock.now(),
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

  /** The channel entered the application (or the call was adopted or restored): start the machine. */
  private begin(start: StasisStart, restored?: CallRecord): void {
    this.phase = RUNNING;
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
    // Call actors invoked without `call` in their input act on this call.
    bindCallToSystem(actor.system, handle);
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
    if (!restored) {
      this.log('info', 'call started', { args: start.args, direction: this.direction });
      actor.start();
      return;
    }
    this.log('info', 'call restored from its record', {
      args: start.args,
      direction: this.direction,
      writtenAt: restored.writtenAt,
      state: actor.getSnapshot().value,
    });
    actor.start();
    this.tell({ type: RESUMED_EVENT });
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
    const lastFailure = this.report().failure;
    const started = this.#resumeNotes?.persist();
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
      ...(started ? { started } : {}),
      failures: this.report().failures,
      ...(lastFailure ? { lastFailure } : {}),
      machine: toPlainData(actor.getPersistedSnapshot()),
    };
  }

  // ── What the handle offers the machine ─────────────────────────────────────────────────────

  /** The REST client of the call's server (untracked). */
  get client(): RestClient {
    return this.host.client;
  }

  /**
   * True for a signal the end of the call aborts anyway: the call's own, or a step signal of its
   * machine (see `markCallScoped`). Requests sent with one need no controller of their own.
   */
  endAborts(signal: AbortSignal): boolean {
    return signal === this.abort?.signal || isCallScoped(signal, this.handle);
  }

  /** A fresh id for a resource of this call. */
  pickId(kind: 'channel' | 'bridge' | 'playback' | 'recording' | 'snoop'): string {
    return this.host.pickId(kind);
  }

  /** The application's call queue `name` on the call's server. */
  queue(name: string, settings?: QueueSettings): CallQueue {
    return this.host.queue(name, settings);
  }

  /** Aborted when the call ends (made on first use). */
  get signal(): AbortSignal {
    this.abort ??= new AbortController();
    if (this.ended && !this.abort.signal.aborted) this.abort.abort(CALL_ENDED);
    return this.abort.signal;
  }

  /** Every event about the call's resources; completes when the call ends. */
  get events$(): Observable<StreamEvent> {
    this.eventStream ??= new CallEventStream();
    if (this.ended) this.eventStream.complete();
    return this.eventStream.events$;
  }

  /**
   * Sends one request for the call (see {@link CallRequests}): counted while pending, cancelled
   * when the call ends; a 404 on one of the call's channels tells the machine `call.gone`.
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
    try {
      const result = await this.requests.send(
        operation,
        params,
        leavesCall ? undefined : options?.signal,
        options?.timeoutMs,
      );
      if (leavesCall) this.leaving = true;
      if (RECORD_OPERATIONS.has(operation) && typeof params.name === 'string')
        this.owned.noteStarted('recording', params.name);
      return result;
    } catch (error) {
      if (channelId && isResourceGone(error) && this.owned.has('channel', channelId)) {
        markCallGone(error);
        this.channelGone(channelId, operation);
      } else if (this.phase.name === 'closing' && error instanceof HttpError && error.status < 500) {
        // The call's channel has left the application: a refusal now (a user event whose source
        // channel is gone, 409 "not in Stasis") is a consequence of that, not a machine failure.
        markCallGone(error);
      }
      throw error;
    } finally {
      this.settleClosing();
    }
  }

  /**
   * A step of the call's logic failed (see {@link StepFailure}): a line with every fact of it
   * (`warn`, or `info` when the step routed the failure itself), a count by flow, step and
   * status, and the last one kept for the call's end.
   */
  reportFailure(failure: StepFailure): void {
    if (this.ended) return;
    this.report().noteFailure(failure);
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

  // ── Ending ─────────────────────────────────────────────────────────────────────────────────

  /**
   * The call's channel left the application (StasisEnd, ChannelDestroyed). The machine has been
   * given the event and may still reach its final state: the reply of the request that made the
   * channel leave (a hangup, a continue) usually arrives after its StasisEnd. So the session waits
   * for its requests in flight (at most {@link CLOSING_GRACE_MS}), then one tick of the clock for
   * their results to reach the machine, and only then stops it and ends.
   */
  private finish(outcome: SessionOutcome): void {
    if (this.phase.name === 'ended' || this.phase.name === 'closing') return;
    if (this.actor?.getSnapshot().status !== 'active') {
      this.end(outcome);
      return;
    }
    this.phase = { name: 'closing', outcome, settling: undefined };
    this.leaving = true;
    this.clock.setTimeout(() => this.end(outcome), CLOSING_GRACE_MS);
    this.settleClosing();
  }

  /** While closing: once no request is in flight, end on the next tick of the clock. */
  private settleClosing(): void {
    const phase = this.phase;
    if (phase.name !== 'closing' || this.requests.inFlight > 0 || phase.settling) return;
    phase.settling = this.clock.setTimeout(() => {
      phase.settling = undefined;
      if (this.requests.inFlight === 0) this.end(phase.outcome);
    }, 0);
  }

  /** The machine reached a final state: hang up unless the channel is already leaving. */
  private machineDone(): void {
    if (this.phase.name === 'closing') {
      this.end(this.phase.outcome);
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
   * stream, removes routes, and cleans up on the server what the call created (nothing when the
   * call is handed over: `detached`).
   * @param hangUpMain also hang up the main channel (drain deadline, failures, stop).
   */
  end(outcome: SessionOutcome, hangUpMain = false): void {
    if (this.ended) return;
    const detached = outcome === 'detached';
    // Handed over: the last record is written before the machine stops; ended here: removed.
    if (detached) this.recorder?.flush();
    this.recorder?.close(!detached);
    this.phase = { name: 'ended', outcome };
    const snapshot = this.actor?.getSnapshot();
    this.actor?.stop();
    this.abort?.abort(CALL_ENDED);
    this.requests.cancelAll(CALL_ENDED);
    this.clock.clearAll();
    this.eventStream?.complete();
    const owned = this.owned.list();
    this.owned.releaseRoutes();
    // A call handed over to another process keeps everything on the server.
    if (!detached)
      releaseOnServer(
        {
          channelId: this.channelId,
          owned,
          hangUpMain,
          leaving: this.leaving,
          isGone: (id) => this.gone?.has(id) === true,
        },
        this.host,
        (message, details) => this.log('debug', message, details),
      );
    const { report, troubled, logFields } = this.report().ended(
      {
        callId: this.id,
        app: this.app,
        server: this.server.name,
        direction: this.direction,
        startedAt: this.startedAt,
      },
      outcome,
      snapshot && { status: snapshot.status, value: snapshot.value, output: snapshot.output },
      this.clock.now(),
    );
    this.ending = report;
    if (this.actor)
      this.host.metrics.callResults.inc({ app: this.app ?? '', result: report.result ?? 'none' });
    this.log(troubled ? 'warn' : 'info', 'call ended', logFields);
    this.options.onEnded(this, report);
    this.resolveDone(outcome);
  }
}
