import type { CallQueue } from '../queue/CallQueue.ts';
import type { QueueSettings } from '../queue/QueueState.ts';
import {
  isEventType,
  type ResourceKind,
  type RestClient,
  type StasisStart,
  type StreamEvent,
} from '@ringflow/client';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { Actor, AnyEventObject, AnyStateMachine } from 'xstate';
import type { CallHandle, CallRequestOptions, ResourceCleanup, ServerInfo } from '../call/CallHandle.ts';
import { isCallScoped } from '../call/callScopedSignal.ts';
import type { StepFailure } from '../call/StepFailure.ts';
import type { CallRecord, CallStore } from '../snapshot/CallRecord.ts';
import {
  type RecoverableCall,
  type Recovery,
  type RecoveryScope,
  recoverCall,
} from '../recovery/recoverCall.ts';
import { askServer, type ServerView } from '../recovery/ServerView.ts';
import type { CallEnded, SessionOutcome } from './CallEnded.ts';
import { deliverEvent, dispatchEvent } from './callEvents.ts';
import { CallEventStream } from './CallEventStream.ts';
import { DigitBuffer } from './DigitBuffer.ts';
import type { OwnedResource } from './OwnedResources.ts';
import { ResumeNotes } from './ResumeNotes.ts';
import type { HandleSession } from './SessionCallHandle.ts';
import { CALL_ENDED, endSession } from './sessionEnd.ts';
import type { SessionHost } from './SessionHost.ts';
import { recordOfCall, startAdopted, startFromRecord } from './sessionStart.ts';
import { SessionState } from './SessionState.ts';
import { sendRequest } from './sendRequest.ts';
import { TrackingClock } from './TrackingClock.ts';

/**
 * What made a call ask the server about what it waits on: an event stream `gap`, a `restore` from
 * its record, its `watchdog`, a request `refusal` saying its channel left the application.
 */
export type RecoveryReason = 'gap' | 'restore' | 'watchdog' | 'refusal';

/** The line a call logs once when a recovery told its machine something. */
const RECOVERED_LINE: Record<RecoveryReason, string> = {
  gap: 'call recovered after a gap: told the machine what it missed',
  restore: 'restored call: told the machine what it missed',
  watchdog: 'call recovered by its watchdog: told the machine what it missed',
  refusal: 'call recovered after a refused request: told the machine what it missed',
};

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

/**
 * One call: its main channel, the resources it created, one XState actor running the call's
 * machine, and the RxJS stream of its events. Created when a channel enters the application
 * (inbound) or just before the application originates one (outbound: owned first, then created).
 * Ends on StasisEnd or ChannelDestroyed of its channel and then releases every route,
 * subscription, timer and pending request.
 *
 * The session is the call's public face and coordinates its parts. What it knows is one
 * {@link SessionState}, its life one explicit {@link SessionPhase} in it. Four parts act for it,
 * each in a file of its own: `sessionStart.ts` starts the call's machine (from its StasisStart, a
 * channel listing or its record) and builds its record; `callEvents.ts` takes each event about
 * the call where it goes; `sendRequest.ts` sends the call's requests and reads what their results
 * say about the call; `sessionEnd.ts` ends the session, however the call ends. Each concern
 * beside them has a class of its own: the call's machine ({@link CallMachine}), the resources it
 * owns ({@link OwnedResources}), its requests in flight ({@link CallRequests}), the copies it
 * takes on a shared stream ({@link SharedStreamCopies}), what its end says ({@link CallReport}),
 * its record for another process ({@link RecordWriter}), and the cleanup on the server at the end
 * ({@link releaseOnServer}).
 *
 * Sessions are made by the application; machines see them through their {@link CallHandle}.
 */
export class CallSession implements HandleSession {
  readonly id: string;
  /** The call's channel: the one that entered, or the one that replaced it on a transfer (see followReplacement). */
  channelId: string;
  readonly direction: 'inbound' | 'outbound';
  readonly server: ServerInfo;
  /** Resolves with the outcome once the session has ended and released everything. */
  readonly done: Promise<SessionOutcome>;
  /** The call's clock: its timers are cleared when the call ends (for the handle). */
  readonly clock: TrackingClock;
  /** The type-ahead buffer of the call's DTMF digits (for the handle). */
  readonly digits = new DigitBuffer();
  /** What the session knows, and the parts it is made of (shared with the parts that act for it). */
  readonly #state: SessionState;

  constructor(host: SessionHost, options: CallSessionOptions) {
    this.id = options.channelId;
    this.channelId = options.channelId;
    this.direction = options.direction;
    this.server = host.server;
    this.clock = new TrackingClock(host.clock);
    let resolveDone!: (outcome: SessionOutcome) => void;
    this.done = new Promise((resolve) => {
      resolveDone = resolve;
    });
    this.#state = new SessionState(this, host, options, resolveDone);
    this.own('channel', options.channelId, false);
  }

  /**
   * The call's logger: one pino child of the runtime's (call id, server, and the application once
   * the call started), made on first use.
   */
  get callLogger(): Logger {
    return this.#state.logger;
  }

  /** What the call actors under way started on the server (for the handle; see ResumeNotes). */
  get resumeNotes(): ResumeNotes {
    this.#state.resumeNotes ??= new ResumeNotes();
    return this.#state.resumeNotes;
  }

  /** The application the call belongs to (known once its channel entered it, or at originate). */
  get application(): string | undefined {
    return this.#state.app;
  }

  /** True once the session has ended. */
  get ended(): boolean {
    return this.#state.ended;
  }

  /** The machine's actor, once the channel has entered the application. */
  get machine(): Actor<AnyStateMachine> | undefined {
    return this.#state.machine?.actor;
  }

  /** How the call ended (outcome, the machine's final state and output), once it has. */
  get result(): CallEnded | undefined {
    return this.#state.result;
  }

  /** The handle the machine got, once started. */
  get call(): CallHandle | undefined {
    return this.#state.handle;
  }

  /** True when the call was started from a channel listing after a gap (see {@link adopt}). */
  get wasAdopted(): boolean {
    return this.#state.adopted;
  }

  /** Live counts, for leak checks: subscriptions to the call's events, timers, requests, routes. */
  counters(): {
    subscriptions: number;
    timers: number;
    pendingRequests: number;
    routes: number;
    digitWaiters: number;
  } {
    const state = this.#state;
    return {
      subscriptions: state.eventStream?.subscriptions ?? 0,
      timers: this.clock.pendingTimers,
      pendingRequests: state.requests.inFlight,
      routes: this.ended ? 0 : state.owned.size,
      digitWaiters: this.digits.waiting,
    };
  }

  /** Ids of the channels this session owns (its own and the ones it created). */
  ownedChannels(): string[] {
    return this.#state.owned.idsOf('channel');
  }

  /** What the call owns now, its own channel included (for the watchdog); empty once ended. */
  ownedNow(): readonly OwnedResource[] {
    return this.ended ? [] : this.#state.owned.list();
  }

  /** Ids of the bridges this session owns or joined. */
  ownedBridges(): string[] {
    return this.#state.owned.idsOf('bridge');
  }

  own(kind: ResourceKind, id: string, cleanup: ResourceCleanup): void {
    if (this.ended) return;
    this.#state.owned.own(kind, id, cleanup);
    this.#state.recorder?.changed();
  }

  disown(kind: ResourceKind, id: string): void {
    if (kind === 'channel' && id === this.channelId) return; // the main channel goes with the session
    if (this.#state.owned.disown(kind, id)) this.#state.recorder?.changed();
  }

  // -- Events --

  /** Receives one event the router found to be about this call (see {@link deliverEvent}). */
  deliver(event: StreamEvent): void {
    deliverEvent(this.#state, event);
  }

  /**
   * Gives an event to the machine while it runs, if some state of the machine handles its type
   * (see {@link CallMachine.tell}). A machine in its final state is done with the call (the
   * session hangs up).
   */
  tell(event: AnyEventObject): void {
    if (!this.ended) this.#state.machine?.tell(event);
  }

  // -- Starting: from a StasisStart, a channel listing, or a record --

  /**
   * Starts a call whose channel is in the application but whose StasisStart never arrived (lost in
   * an event stream gap), from a StasisStart made of the server's channel listing. A StasisStart
   * arriving later for the channel is dropped, so the machine starts once.
   */
  adopt(start: StasisStart): void {
    startAdopted(this.#state, start);
  }

  /**
   * Takes over a call from its record (written by another process, or by an application of this
   * one that let it go with `detach()`): the resources it owned are its again, its machine goes
   * on from its snapshot (effects and timers that were under way are taken up by the engine, see
   * `ResumeRule`), and what its resources did while nobody followed them is looked up on the
   * server and told to the machine (see {@link recover}): a caller who hung up meanwhile is told
   * `StasisEnd`, so the flow's hang-up path runs here.
   */
  restore(record: CallRecord): void {
    if (!startFromRecord(this.#state, record)) return;
    this.recover(askServer(this.#state.host.client), 'restored', 'restore').catch((error: unknown) =>
      this.#state.log('warn', 'restored call: could not check its resources on the server', { err: error }),
    );
  }

  /**
   * Asks the server about what the call waits on (its channel, playbacks, recordings, dialled
   * channels, bridges: all of them after a restore, what the server is known to have after a
   * gap, or the watchdog's overdue waits) and tells the machine the events it missed, marked
   * `recovered: true` (see {@link recoverCall}). Logs once what it told (`warn`: events were
   * lost; `info` after a restore, where that is expected) and counts each event by type. Rejects
   * when the server could not be asked.
   * @param why what lost the events, for the log and the metrics (see {@link RecoveryReason})
   */
  async recover(view: ServerView, scope: RecoveryScope, why: RecoveryReason): Promise<Recovery> {
    const state = this.#state;
    const recovery = await recoverCall(this.#recoverable, view, scope);
    if (recovery.told.length > 0) {
      for (const type of recovery.events) state.host.metrics.eventsRecovered.inc({ type, reason: why });
      state.log(why === 'restore' ? 'info' : 'warn', RECOVERED_LINE[why], { recovered: recovery.told });
    }
    return recovery;
  }

  /** The call as a recovery sees it (see {@link recover}). */
  get #recoverable(): RecoverableCall {
    const session = this;
    const state = this.#state;
    return {
      channelId: this.channelId,
      app: state.app,
      now: () => session.clock.now(),
      owned: (kind, id) => (session.ended ? undefined : state.owned.get(kind, id)),
      allOwned: () => (session.ended ? [] : state.owned.list()),
      get ended() {
        return session.ended;
      },
      tell: (event) => {
        if (session.ended) return;
        if (isEventType(event, 'StasisEnd') && event.channel?.id === session.channelId) {
          // Closing: the machine had its channel's end already.
          if (state.phase.name === 'closing') return;
          // The caller is gone: nothing hangs the channel up again.
          state.leaving = true;
          state.noteGone(session.channelId);
        }
        dispatchEvent(state, event);
      },
    };
  }

  /**
   * The call as plain data (see {@link CallRecord}): what another process needs to take it
   * over. Undefined before the machine started, and once the call has ended.
   */
  record(): CallRecord | undefined {
    return recordOfCall(this.#state);
  }

  // -- What the handle offers the machine --

  /** The REST client of the call's server (untracked). */
  get client(): RestClient {
    return this.#state.host.client;
  }

  /**
   * True for a signal the end of the call aborts anyway: the call's own, or a step signal of its
   * machine (see `markCallScoped`). Requests sent with one need no controller of their own.
   */
  endAborts(signal: AbortSignal): boolean {
    return signal === this.#state.abort?.signal || isCallScoped(signal, this.#state.handle);
  }

  /** A fresh id for a resource of this call. */
  pickId(kind: 'channel' | 'bridge' | 'playback' | 'recording' | 'snoop'): string {
    return this.#state.host.pickId(kind);
  }

  /** The application's call queue `name` on the call's server. */
  queue(name: string, settings?: QueueSettings): CallQueue {
    return this.#state.host.queue(name, settings);
  }

  /** Aborted when the call ends (made on first use). */
  get signal(): AbortSignal {
    const state = this.#state;
    state.abort ??= new AbortController();
    if (this.ended && !state.abort.signal.aborted) state.abort.abort(CALL_ENDED);
    return state.abort.signal;
  }

  /** Every event about the call's resources; completes when the call ends. */
  get events$(): Observable<StreamEvent> {
    const state = this.#state;
    state.eventStream ??= new CallEventStream();
    if (this.ended) state.eventStream.complete();
    return state.eventStream.events$;
  }

  /**
   * Sends one request for the call (see {@link sendRequest}): counted while pending, cancelled
   * when the call ends; a 404 on one of the call's channels tells the machine `call.gone`.
   */
  send(
    operation: string,
    params: Readonly<Record<string, unknown>>,
    options?: CallRequestOptions,
  ): Promise<unknown> {
    return sendRequest(this.#state, operation, params, options);
  }

  /**
   * A step of the call's logic failed (see {@link StepFailure}): a line with every fact of it
   * (`warn`, or `info` when the step routed the failure itself), a count by flow, step and
   * status, and the last one kept for the call's end.
   */
  reportFailure(failure: StepFailure): void {
    if (this.ended) return;
    const state = this.#state;
    state.report().noteFailure(failure);
    state.host.metrics.stepFailed(failure.flow, failure.step, failure.status);
    // A failure the step routes itself was expected by the flow's author: info, not warn.
    state.log(
      failure.unhandled ? 'warn' : 'info',
      `step failed: ${failure.step} in ${failure.flow}/${failure.state}; ${failure.next}`,
      { failure },
    );
  }

  // -- Ending --

  /**
   * Ends the session: stops the machine, cancels requests, clears timers, completes the event
   * stream, removes routes, and cleans up on the server what the call created (nothing when the
   * call is handed over: `detached`).
   * @param hangUpMain also hang up the main channel (drain deadline, failures, stop).
   */
  end(outcome: SessionOutcome, hangUpMain = false): void {
    endSession(this.#state, outcome, hangUpMain);
  }
}
