import {
  type ChannelHandle,
  ErrorCode,
  isResourceGone,
  type ResourceKind,
  RingflowError,
  type StasisStart,
  type StreamEvent,
  type TimerHandle,
} from '@ringflow/client';
import type { Logger } from 'pino';
import { Observable, Subject } from 'rxjs';
import { type Actor, type AnyEventObject, type AnyStateMachine, createActor } from 'xstate';
import { bindHandle } from '../call/bindHandle.ts';
import type { CallHandle, CallInput, CallRequestOptions, ServerInfo } from '../call/CallHandle.ts';
import type { OperationId, ParamsOf, ResultOf } from '../call/OperationId.ts';
import { DigitBuffer } from './DigitBuffer.ts';
import { addressedTo, EventCopyFilter } from './EventCopyFilter.ts';
import { markCallGone } from './isCallGone.ts';
import type { SessionHost } from './SessionHost.ts';
import { TrackingClock } from './TrackingClock.ts';

/** How a call session ended. */
export type SessionOutcome =
  /** The channel left the application (hangup, continue, move). */
  | 'completed'
  /** The machine failed (an unhandled error event, an action that threw). */
  | 'failed'
  /** An outbound channel was destroyed before it entered the application. */
  | 'unanswered'
  /** After an event stream gap, the channel was no longer on the server. */
  | 'reconciled'
  /** The drain deadline passed and the call was hung up. */
  | 'drained'
  /** The application stopped. */
  | 'stopped';

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
  /** Called once when the session has ended and released everything. */
  readonly onEnded: (session: CallSession, outcome: SessionOutcome) => void;
}

/** Operations after which the main channel is on its way out of the application. */
const LEAVING_OPERATIONS = new Set([
  'channels.hangup',
  'channels.continueInDialplan',
  'channels.move',
  'channels.redirect',
]);

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

/** What a session owns, with whether the runtime must clean it up on the server at the end. */
interface Owned {
  readonly kind: ResourceKind;
  readonly id: string;
  cleanup: boolean;
}

function ownedKey(kind: ResourceKind, id: string): string {
  return `${kind}\u0000${id}`;
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
export class CallSession {
  readonly id: string;
  readonly channelId: string;
  readonly direction: 'inbound' | 'outbound';
  readonly server: ServerInfo;
  /** Resolves with the outcome once the session has ended and released everything. */
  readonly done: Promise<SessionOutcome>;
  private readonly host: SessionHost;
  private readonly options: CallSessionOptions;
  private readonly clock: TrackingClock;
  private readonly abort = new AbortController();
  private readonly events = new Subject<StreamEvent>();
  private readonly owned = new Map<string, Owned>();
  private readonly gone = new Set<string>();
  private readonly digitBuffer = new DigitBuffer();
  /** Channels of the call in its own application (its copy of their events is certain to come). */
  private readonly inOwnApp = new Set<string>();
  private readonly copies: EventCopyFilter | undefined;
  private app: string | undefined;
  private logger: Logger;
  private actor: Actor<AnyStateMachine> | undefined;
  private handle: CallHandle | undefined;
  private subscriptions = 0;
  private pending = 0;
  private leaving = false;
  private outcome: SessionOutcome | undefined;
  private resolveDone!: (outcome: SessionOutcome) => void;

  constructor(host: SessionHost, options: CallSessionOptions) {
    this.host = host;
    this.options = options;
    this.id = options.channelId;
    this.channelId = options.channelId;
    this.direction = options.direction;
    this.server = host.server;
    this.clock = new TrackingClock(host.clock);
    this.logger = host.logger.child({ call: options.channelId, server: host.server.name });
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    this.app = options.app;
    this.copies = options.sharedStream ? new EventCopyFilter() : undefined;
    this.own('channel', options.channelId, false);
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
      digitWaiters: this.digitBuffer.waiting,
    };
  }

  /** Ids of the channels this session owns (its own and the ones it created). */
  ownedChannels(): string[] {
    return [...this.owned.values()].filter((o) => o.kind === 'channel').map((o) => o.id);
  }

  /** Ids of the bridges this session owns or joined. */
  ownedBridges(): string[] {
    return [...this.owned.values()].filter((o) => o.kind === 'bridge').map((o) => o.id);
  }

  own(kind: ResourceKind, id: string, cleanup: boolean): void {
    if (this.ended) return;
    const key = ownedKey(kind, id);
    const known = this.owned.get(key);
    if (known) {
      known.cleanup ||= cleanup;
      return;
    }
    this.owned.set(key, { kind, id, cleanup });
    this.host.router.add(this.server.asteriskId, kind, id, this);
  }

  disown(kind: ResourceKind, id: string): void {
    if (kind === 'channel' && id === this.channelId) return; // the main channel goes with the session
    if (this.owned.delete(ownedKey(kind, id)))
      this.host.router.remove(this.server.asteriskId, kind, id, this);
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
    if (event.type === 'ChannelDtmfReceived' && isMain) {
      const digit = (event as { digit?: unknown }).digit;
      if (typeof digit === 'string') this.digitBuffer.push(digit);
    }
    this.events.next(event);
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
      if (event.type === 'StasisStart') this.inOwnApp.add(channelId);
      else if (event.type === 'StasisEnd' || event.type === 'ChannelDestroyed')
        this.inOwnApp.delete(channelId);
    }
    if (
      to !== this.app &&
      channelId !== undefined &&
      this.inOwnApp.has(channelId) &&
      !APP_ADDRESSED.has(event.type)
    ) {
      return false;
    }
    return this.copies?.accept(event) ?? true;
  }

  /** Bookkeeping once everyone has seen the event: end the call, forget finished resources. */
  private afterEvent(event: StreamEvent, channelId: string | undefined, isMain: boolean): void {
    switch (event.type) {
      case 'StasisEnd':
        if (isMain) this.end(this.actor ? 'completed' : 'unanswered');
        return;
      case 'ChannelDestroyed':
        if (isMain) this.end(this.actor ? 'completed' : 'unanswered');
        else if (channelId) this.disown('channel', channelId);
        return;
      case 'PlaybackFinished': {
        const id = (event as { playback?: { id?: unknown } }).playback?.id;
        if (typeof id === 'string') this.disown('playback', id);
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

  /**
   * Gives an event to the machine while it runs. A machine in its final state is done with the
   * call (the session hangs up); XState would only warn on the console about such late events.
   */
  private tell(event: AnyEventObject): void {
    if (!this.ended && this.actor?.getSnapshot().status === 'active') this.actor.send(event);
  }

  /** The channel entered the application: start the machine. */
  private begin(start: StasisStart): void {
    this.app ??= start.application;
    this.logger = this.logger.child({ app: start.application });
    const handle = this.makeHandle(start);
    this.handle = handle;
    let machine: AnyStateMachine;
    try {
      machine = this.options.machineFor(start);
    } catch (error) {
      this.logger.error({ err: error }, 'could not pick a machine for the call; hanging up');
      this.fail();
      return;
    }
    const input: CallInput = { call: handle };
    const actor = createActor(machine, {
      input,
      clock: this.clock,
      id: `call:${this.channelId}`,
      logger: (...args: unknown[]) => this.logger.debug({ machineLog: args }, 'machine log'),
    });
    this.actor = actor;
    actor.subscribe({
      complete: () => this.machineDone(),
      error: (error) => {
        this.logger.error({ err: error }, 'call machine failed; hanging up');
        this.fail();
      },
    });
    this.logger.info({ args: start.args, direction: this.direction }, 'call started');
    actor.start();
  }

  private makeHandle(start: StasisStart): CallHandle {
    const session = this;
    const send = (
      operation: string,
      params: Readonly<Record<string, unknown>>,
      options?: CallRequestOptions,
    ) => this.send(operation, params, options);
    const events$ = new Observable<StreamEvent>((subscriber) => {
      this.subscriptions++;
      const inner = this.events.subscribe(subscriber);
      return () => {
        this.subscriptions--;
        inner.unsubscribe();
      };
    });
    return {
      id: this.id,
      channelId: this.channelId,
      channel: bindHandle('channel', { channelId: this.channelId }, send) as ChannelHandle,
      direction: this.direction,
      app: start.application,
      args: start.args ?? [],
      start,
      server: this.server,
      client: this.host.client,
      clock: this.clock,
      get logger() {
        return session.logger;
      },
      events$,
      digits: this.digitBuffer,
      signal: this.abort.signal,
      get ended() {
        return session.ended;
      },
      request: <Op extends OperationId>(operation: Op, params: ParamsOf<Op>, options?: CallRequestOptions) =>
        send(operation, params as Readonly<Record<string, unknown>>, options) as Promise<ResultOf<Op>>,
      pickId: (kind) => this.host.pickId(kind),
      own: (kind, id, options) => this.own(kind, id, options?.cleanup ?? true),
      disown: (kind, id) => this.disown(kind, id),
      setTimer: (callback, delayMs) => this.clock.setTimeout(callback, delayMs),
      clearTimer: (handle: TimerHandle | undefined) => this.clock.clearTimeout(handle),
      send: (event) => {
        this.tell(event);
      },
    };
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
    const signal = leavesCall
      ? undefined
      : options?.signal
        ? AbortSignal.any([this.abort.signal, options.signal])
        : this.abort.signal;
    this.pending++;
    try {
      const result = await this.host.client.request(operation, params, {
        ...(signal ? { signal } : {}),
        ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      if (channelId === this.channelId && LEAVING_OPERATIONS.has(operation)) this.leaving = true;
      return result;
    } catch (error) {
      if (channelId && isResourceGone(error) && this.owned.has(ownedKey('channel', channelId))) {
        markCallGone(error);
        this.channelGone(channelId, operation);
      }
      throw error;
    } finally {
      this.pending--;
    }
  }

  private channelGone(channelId: string, operation: string): void {
    if (this.gone.has(channelId)) return;
    this.gone.add(channelId);
    if (channelId === this.channelId) this.leaving = true;
    this.logger.debug({ channel: channelId, operation }, 'channel is gone');
    this.tell({ type: 'call.gone', channelId, operation });
  }

  /**
   * After an event stream gap: forget the channels and bridges of this call that the server no
   * longer has, telling the machine `call.gone` for lost channels. The main channel is alive.
   */
  reconcile(liveChannels: ReadonlySet<string>, liveBridges: ReadonlySet<string>): void {
    for (const { kind, id } of [...this.owned.values()]) {
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
    if (this.ended || this.leaving) return;
    this.logger.debug('machine finished with the channel still in the application; hanging up');
    this.leaving = true;
    this.send('channels.hangup', { channelId: this.channelId }).catch((error: unknown) => {
      if (isResourceGone(error) || this.ended) return;
      this.logger.warn({ err: error }, 'hangup after the machine finished failed');
      this.end('failed');
    });
  }

  private fail(): void {
    if (this.ended) return;
    const hangUp = !this.leaving && !this.gone.has(this.channelId);
    this.end('failed', hangUp);
  }

  /**
   * Ends the session: stops the machine, cancels requests, clears timers, completes the event
   * stream, removes routes, and cleans up on the server what the call created.
   * @param hangUpMain also hang up the main channel (drain deadline, failures, stop).
   */
  end(outcome: SessionOutcome, hangUpMain = false): void {
    if (this.ended) return;
    this.outcome = outcome;
    this.actor?.stop();
    this.abort.abort(new RingflowError(ErrorCode.ABORTED, `call ${this.channelId} ended (${outcome})`));
    this.clock.clearAll();
    this.events.complete();
    const client = this.host.client;
    for (const { kind, id, cleanup } of this.owned.values()) {
      this.host.router.remove(this.server.asteriskId, kind, id, this);
      const main = kind === 'channel' && id === this.channelId;
      if (main ? hangUpMain : cleanup && !this.gone.has(id)) {
        if (kind === 'channel') this.host.cleanup(`hang up ${id}`, () => client.channel(id).hangup());
        if (kind === 'bridge') this.host.cleanup(`destroy bridge ${id}`, () => client.bridge(id).destroy());
      }
    }
    this.owned.clear();
    this.logger.info({ outcome }, 'call ended');
    this.options.onEnded(this, outcome);
    this.resolveDone(outcome);
  }
}
