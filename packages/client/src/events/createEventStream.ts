import type { Observable } from 'rxjs';
import { BehaviorSubject, Subject } from '../rx.ts';
import { type Clock, systemClock, type TimerHandle } from '../clock/index.ts';
import { ErrorCode, RingflowError } from '../errors/index.ts';
import { type BackoffSettings, backoffDelay, resolveBackoff } from './backoff.ts';
import {
  buildEventStreamRequest,
  type EventStreamRequest,
  type EventStreamTarget,
} from './buildEventStreamRequest.ts';
import type { ConnectionState, DisconnectReason, EventGap, EventStreamProblem } from './ConnectionState.ts';
import type { EventTransport, EventTransportConnection } from './EventTransport.ts';
import { HandshakeRejectedError } from './HandshakeRejectedError.ts';
import { parseEventFrame } from './parseEventFrame.ts';
import type { StreamEvent } from './StreamEvent.ts';
import { checkTlsOptions, type TlsOptions } from '../rest/TlsOptions.ts';
import { WsTransport } from './WsTransport.ts';
import { EventSocketRestTransport } from './EventSocketRestTransport.ts';
import type { RestTransport } from '../rest/RestTransport.ts';

/** Options of {@link createEventStream}. */
export interface EventStreamOptions extends EventStreamTarget {
  /** Source of time for every timer (backoff, ping, timeouts). Default: the system clock. */
  readonly clock?: Clock;
  /**
   * Connect only when `open()` is called, not as soon as the stream is made. For code that makes
   * its streams early and starts them later: a server takes an application's events away from
   * the connection it had as soon as another one registers the same application name. Default
   * false: connect at once.
   */
  readonly lazy?: boolean;
  /** Reconnection delays; see {@link BackoffSettings}. */
  readonly backoff?: Partial<BackoffSettings>;
  /** Random numbers in [0, 1) for the backoff jitter. Default Math.random; tests pass a seeded one. */
  readonly random?: () => number;
  /** How long an open connection may go without a ping. Default 20 s; 0 turns liveness checks off. */
  readonly pingIntervalMs?: number;
  /** A ping not answered within this ends the connection and starts a reconnect. Default 10 s. */
  readonly pongTimeoutMs?: number;
  /** A connection attempt that neither opens nor fails within this is abandoned. Default 10 s. */
  readonly connectTimeoutMs?: number;
  /**
   * When the server refuses the handshake (401 wrong password, 400 no application...), stop and
   * end `closed` instead of retrying. Default false: the refusal is reported on `problems$` and on
   * the `reconnecting` state, and the stream keeps retrying with backoff, because a server that is
   * starting up or reloading its users refuses for a while and then accepts.
   */
  readonly stopOnRejection?: boolean;
  /**
   * For `wss://` (or `https://`) urls: the CA to trust, a client certificate, the server name to
   * check (see {@link TlsOptions}); configures the default transport. There is no option to skip
   * certificate checks.
   */
  readonly tls?: TlsOptions;
  /** What carries the frames. Default: a {@link WsTransport}. */
  readonly transport?: EventTransport;
  /**
   * Carry REST requests on this socket too (servers since interface 2.0): the stream's
   * `restTransport` sends `RESTRequest` frames on the open connection, and the `RESTResponse`
   * frames are taken off `events$` to settle them. Give it to `createRestClient({ transport })`.
   */
  readonly restOverSocket?: boolean;
  /**
   * With `restOverSocket`: where the requests a socket cannot carry go (binary downloads,
   * `recordings.getStoredFile`), e.g. an `UndiciTransport` to the server's HTTP address.
   */
  readonly restFallback?: RestTransport;
}

/** A live event stream; see {@link createEventStream}. */
export interface EventStream {
  /** Every event of every application of this stream, in arrival order. Hot and shared. */
  readonly events$: Observable<StreamEvent>;
  /** The connection state; a new subscriber gets the current state first. */
  readonly state$: Observable<ConnectionState>;
  /** Each time the stream came back after losing its connection (also on the `open` state). */
  readonly gaps$: Observable<EventGap>;
  /** What went wrong and was handled (bad frames, refusals, timeouts, network errors). */
  readonly problems$: Observable<EventStreamProblem>;
  /** The current state. */
  readonly state: ConnectionState;
  /**
   * With `restOverSocket: true`, the REST transport that sends requests over this stream's socket
   * (for `createRestClient({ transport })`); undefined otherwise.
   */
  readonly restTransport: RestTransport | undefined;
  /**
   * Resolves when the stream is open (at once if it is). Rejects with the
   * {@link HandshakeRejectedError} if the server refuses a handshake before that, or with a
   * `CLOSED` RingflowError if the stream is closed first. Network failures do not reject: the
   * stream keeps trying. Handy at startup, to fail loudly on a wrong password.
   */
  whenOpen(): Promise<Extract<ConnectionState, { kind: 'open' }>>;
  /** Starts connecting a `lazy` stream; does nothing on a stream already connecting or open. */
  open(): void;
  /**
   * Stops for good: no more reconnects, no timers left, every observable completes. Resolves when
   * the connection has closed.
   */
  close(): Promise<void>;
}

/** One connection attempt and what belongs to it. */
interface Link {
  connection?: EventTransportConnection;
  ended: boolean;
  openedAt?: number;
  connectTimer?: TimerHandle;
  pingTimer?: TimerHandle;
  pongTimer?: TimerHandle;
  /** Set by close(): called once the transport reports the connection gone. */
  onEnded?: () => void;
}

const DEFAULTS = { pingIntervalMs: 20_000, pongTimeoutMs: 10_000, connectTimeoutMs: 10_000 };

class EventStreamController implements EventStream {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: BackoffSettings;
  private readonly transport: EventTransport;
  private readonly request: EventStreamRequest;
  private readonly pingIntervalMs: number;
  private readonly pongTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly stopOnRejection: boolean;
  private readonly socketRest: EventSocketRestTransport | undefined;

  private readonly eventsSubject = new Subject<StreamEvent>();
  private readonly stateSubject: BehaviorSubject<ConnectionState>;
  private readonly gapsSubject = new Subject<EventGap>();
  private readonly problemsSubject = new Subject<EventStreamProblem>();

  readonly events$: Observable<StreamEvent>;
  readonly state$: Observable<ConnectionState>;
  readonly gaps$: Observable<EventGap>;
  readonly problems$: Observable<EventStreamProblem>;

  private link: Link | undefined;
  private reconnectTimer: TimerHandle | undefined;
  /** Consecutive attempts since the last stable connection. */
  private attempt = 0;
  /** When the last open connection was lost; undefined until one has opened and dropped. */
  private lostAt: number | undefined;
  /** Attempts made since the last open connection was lost (reported on the gap). */
  private attemptsSinceLoss = 0;
  private opens = 0;
  private finished = false;
  /** `open()` was called (at creation unless `lazy`). */
  private opened = false;
  private closing: Promise<void> | undefined;

  constructor(options: EventStreamOptions) {
    this.request = buildEventStreamRequest(options);
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.backoff = resolveBackoff(options.backoff);
    checkTlsOptions(options.tls, options.url, 'createEventStream: tls');
    this.transport = options.transport ?? new WsTransport(options.tls ? { tls: options.tls } : {});
    this.pingIntervalMs = nonNegative(options.pingIntervalMs ?? DEFAULTS.pingIntervalMs, 'pingIntervalMs');
    this.pongTimeoutMs = positive(options.pongTimeoutMs ?? DEFAULTS.pongTimeoutMs, 'pongTimeoutMs');
    this.connectTimeoutMs = positive(
      options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
      'connectTimeoutMs',
    );
    this.stopOnRejection = options.stopOnRejection ?? false;
    this.socketRest = options.restOverSocket ? new EventSocketRestTransport(options.restFallback) : undefined;

    this.stateSubject = new BehaviorSubject<ConnectionState>({
      kind: 'connecting',
      attempt: 0,
      url: this.request.redactedUrl,
    });
    this.events$ = this.eventsSubject.asObservable();
    this.state$ = this.stateSubject.asObservable();
    this.gaps$ = this.gapsSubject.asObservable();
    this.problems$ = this.problemsSubject.asObservable();
    // Connect on the next microtask, so that code subscribing right after creation sees every
    // event even from a transport that opens and delivers synchronously.
    if (!options.lazy) this.open();
  }

  open(): void {
    if (this.opened) return;
    this.opened = true;
    queueMicrotask(() => {
      if (!this.finished) this.connect();
    });
  }

  get state(): ConnectionState {
    return this.stateSubject.value;
  }

  get restTransport(): RestTransport | undefined {
    return this.socketRest;
  }

  whenOpen(): Promise<Extract<ConnectionState, { kind: 'open' }>> {
    const state = this.state;
    if (state.kind === 'open') return Promise.resolve(state);
    if (state.kind === 'closed') {
      return Promise.reject(
        state.error ?? new RingflowError(ErrorCode.CLOSED, 'The event stream is closed.'),
      );
    }
    return new Promise((resolve, reject) => {
      const problems = this.problemsSubject.subscribe((problem) => {
        if (problem.kind !== 'handshake-rejected') return;
        done();
        reject(problem.error);
      });
      const states = this.stateSubject.subscribe((state) => {
        if (state.kind === 'open') {
          done();
          resolve(state);
        } else if (state.kind === 'closed') {
          done();
          reject(
            state.error ??
              new RingflowError(ErrorCode.CLOSED, 'The event stream was closed before it opened.'),
          );
        }
      });
      // The state subject replays synchronously, possibly before `states` is assigned.
      function done() {
        queueMicrotask(() => {
          problems.unsubscribe();
          states.unsubscribe();
        });
      }
    });
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    const link = this.link;
    this.clock.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    let ended: Promise<void> = Promise.resolve();
    if (link && !link.ended) {
      this.clearLinkTimers(link);
      ended = new Promise((resolve) => {
        link.onEnded = resolve;
      });
      if (link.connection) link.connection.close(1000, 'client closed');
      // A transport that failed to connect has nothing to close.
      else this.endLink(link);
    }
    this.finish({ kind: 'closed', at: this.clock.now(), by: 'user' });
    void this.socketRest?.close();
    this.closing = ended;
    return ended;
  }

  /** Emits the final state and completes every observable. */
  private finish(state: Extract<ConnectionState, { kind: 'closed' }>): void {
    if (this.finished) return;
    this.finished = true;
    this.stateSubject.next(state);
    this.stateSubject.complete();
    this.eventsSubject.complete();
    this.gapsSubject.complete();
    this.problemsSubject.complete();
  }

  private setState(state: ConnectionState): void {
    if (!this.finished) this.stateSubject.next(state);
  }

  private report(problem: EventStreamProblem): void {
    if (!this.finished) this.problemsSubject.next(problem);
  }

  private connect(): void {
    const current = this.stateSubject.value;
    if (current.kind !== 'connecting' || current.attempt !== this.attempt) {
      this.setState({ kind: 'connecting', attempt: this.attempt, url: this.request.redactedUrl });
    }
    const link: Link = { ended: false };
    this.link = link;
    const live = () => this.link === link && !link.ended;
    link.connectTimer = this.clock.setTimeout(() => {
      link.connectTimer = undefined;
      if (!live() || link.openedAt !== undefined) return;
      const error = new RingflowError(
        ErrorCode.TIMEOUT,
        `The event stream ${this.request.redactedUrl} did not open within ${this.connectTimeoutMs} ms; retrying. Check that the server is reachable, or raise connectTimeoutMs.`,
      );
      this.report({ kind: 'connect-timeout', at: this.clock.now(), error });
      this.abandon(link, { kind: 'connect-timeout', error });
    }, this.connectTimeoutMs);

    try {
      link.connection = this.transport.connect(this.request, {
        open: () => {
          if (live()) this.onOpen(link);
        },
        message: (frame) => {
          if (!live()) return;
          const parsed = parseEventFrame(frame);
          if (parsed.ok) {
            if (this.socketRest?.receive(parsed.event)) return;
            this.eventsSubject.next(parsed.event);
          } else this.report({ kind: 'malformed-frame', at: this.clock.now(), error: parsed.error });
        },
        pong: () => {
          if (!live() || link.pongTimer === undefined) return;
          this.clock.clearTimeout(link.pongTimer);
          link.pongTimer = undefined;
          this.schedulePing(link);
        },
        rejected: (status, body) => {
          if (!live()) return;
          const error = new HandshakeRejectedError(status, body, this.request.redactedUrl);
          this.report({ kind: 'handshake-rejected', at: this.clock.now(), error });
          this.endLink(link);
          if (this.stopOnRejection)
            this.finish({ kind: 'closed', at: this.clock.now(), by: 'rejected', error });
          else this.scheduleReconnect({ kind: 'rejected', status, error });
        },
        error: (cause) => {
          if (!live()) return;
          // The cause's text is not repeated here: loggers append it (pino: `message: cause`).
          const error = new RingflowError(
            ErrorCode.NETWORK,
            `The event stream ${this.request.redactedUrl} failed, reconnecting with backoff`,
            { cause },
          );
          this.report({ kind: 'transport-error', at: this.clock.now(), error });
          this.abandon(link, { kind: 'error', error });
        },
        closed: (code, reason) => {
          if (!live()) return;
          this.endLink(link);
          this.scheduleReconnect({ kind: 'closed', code, reason });
        },
      });
    } catch (cause) {
      if (!live()) return;
      const error = new RingflowError(
        ErrorCode.NETWORK,
        `The event stream transport could not connect to ${this.request.redactedUrl}, reconnecting with backoff`,
        { cause },
      );
      this.report({ kind: 'transport-error', at: this.clock.now(), error });
      this.endLink(link);
      this.scheduleReconnect({ kind: 'error', error });
    }
  }

  private onOpen(link: Link): void {
    const now = this.clock.now();
    // `open` may come from inside `connect`, before the connection handle is known: look it up late.
    this.socketRest?.attach((frame) => {
      if (!link.connection?.send) throw new Error('this event transport cannot send frames');
      link.connection.send(frame);
    });
    this.clock.clearTimeout(link.connectTimer);
    link.connectTimer = undefined;
    link.openedAt = now;
    let gap: EventGap | undefined;
    if (this.lostAt !== undefined) {
      gap = { from: this.lostAt, to: now, durationMs: now - this.lostAt, attempts: this.attemptsSinceLoss };
    }
    const reconnects = this.opens;
    this.opens += 1;
    this.schedulePing(link);
    this.setState({
      kind: 'open',
      since: now,
      url: this.request.redactedUrl,
      reconnects,
      ...(gap ? { gap } : {}),
    });
    if (gap && !this.finished) this.gapsSubject.next(gap);
  }

  private schedulePing(link: Link): void {
    if (this.pingIntervalMs === 0 || this.finished) return;
    link.pingTimer = this.clock.setTimeout(() => {
      link.pingTimer = undefined;
      if (this.link !== link || link.ended) return;
      link.pongTimer = this.clock.setTimeout(() => {
        link.pongTimer = undefined;
        if (this.link !== link || link.ended) return;
        const error = new RingflowError(
          ErrorCode.TIMEOUT,
          `The event stream ${this.request.redactedUrl} did not answer a ping within ${this.pongTimeoutMs} ms; the connection is considered dead and is replaced.`,
        );
        this.report({ kind: 'pong-timeout', at: this.clock.now(), error });
        this.abandon(link, { kind: 'pong-timeout', error });
      }, this.pongTimeoutMs);
      try {
        link.connection?.ping();
      } catch {
        // A socket that cannot ping is dying: its close or the pong timeout will say so.
      }
    }, this.pingIntervalMs);
  }

  /** Ends a connection the stream gave up on, and reconnects. */
  private abandon(link: Link, reason: DisconnectReason): void {
    this.endLink(link);
    try {
      link.connection?.terminate();
    } catch {
      // Terminating must not throw by contract; a transport that does still must not stop us.
    }
    this.scheduleReconnect(reason);
  }

  private clearLinkTimers(link: Link): void {
    this.clock.clearTimeout(link.connectTimer);
    this.clock.clearTimeout(link.pingTimer);
    this.clock.clearTimeout(link.pongTimer);
    link.connectTimer = link.pingTimer = link.pongTimer = undefined;
  }

  private endLink(link: Link): void {
    if (link.ended) return;
    link.ended = true;
    if (link.openedAt !== undefined) this.socketRest?.detach('the event socket closed');
    this.clearLinkTimers(link);
    if (link.openedAt !== undefined && !this.finished) {
      const now = this.clock.now();
      this.lostAt = now;
      this.attemptsSinceLoss = 0;
      // Only a connection that held counts as recovery; one that dropped at once keeps backing off.
      if (now - link.openedAt >= this.backoff.resetAfterMs) this.attempt = 0;
    }
    link.onEnded?.();
  }

  private scheduleReconnect(reason: DisconnectReason): void {
    if (this.finished) return;
    this.attempt += 1;
    this.attemptsSinceLoss += 1;
    const delayMs = backoffDelay(this.attempt, this.backoff, this.random);
    const now = this.clock.now();
    this.setState({
      kind: 'reconnecting',
      attempt: this.attempt,
      delayMs,
      retryAt: now + delayMs,
      ...(this.lostAt !== undefined ? { lostAt: this.lostAt } : {}),
      reason,
    });
    this.reconnectTimer = this.clock.setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.finished) this.connect();
    }, delayMs);
  }
}

function nonNegative(value: number, field: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new RingflowError(
      ErrorCode.CONFIG,
      `options.${field} is ${value}: expected milliseconds, 0 or more.`,
    );
  }
  return value;
}

function positive(value: number, field: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RingflowError(ErrorCode.CONFIG, `options.${field} is ${value}: expected milliseconds above 0.`);
  }
  return value;
}

/**
 * Opens the event stream of one server: one WebSocket carrying one or more applications, that
 * reconnects forever with jittered exponential backoff until `close()`, checks liveness with
 * ping/pong, and delivers every event (known or not) on `events$`. Frames that are not events are
 * skipped and reported on `problems$`. Connecting starts on the next microtask, so subscribe
 * right after creating it.
 *
 * @example
 * const stream = createEventStream({
 *   url: 'http://127.0.0.1:8088/ari', apps: ['ivr'], username: 'demo', password: 'demo',
 * });
 * stream.events$.pipe(ofType('StasisStart')).subscribe((e) => console.log('call', e.channel.id));
 * stream.state$.subscribe((s) => console.log('event stream', s.kind));
 * await stream.whenOpen(); // throws HandshakeRejectedError on a wrong password
 * // ... later
 * await stream.close();
 */
export function createEventStream(options: EventStreamOptions): EventStream {
  return new EventStreamController(options);
}
