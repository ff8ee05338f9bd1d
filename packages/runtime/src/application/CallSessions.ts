import type { ChannelsOriginateParams, Clock } from '@ringflow/client';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import { Subject } from '../rx.ts';
import type { AnyStateMachine } from 'xstate';
import { BridgeSession, type BridgeSessionOptions } from '../bridge/BridgeSession.ts';
import type { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { CallEnded } from '../session/CallEnded.ts';
import { CallSession } from '../session/CallSession.ts';
import type { CallRecord, CallStore } from '../snapshot/CallRecord.ts';
import type { MachinePicker } from './MachinePicker.ts';
import type { ServerLink } from './ServerLink.ts';

/** What the book of calls needs of the application. */
export interface CallSessionsHost {
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  readonly machines: MachinePicker;
  readonly store: CallStore | undefined;
  /** The event stream carries several applications: sessions take each event once. */
  readonly sharedStream: boolean;
  /** The link a session's call lives on: the accepted socket it came over, else its server's. */
  linkOf(session: CallSession): ServerLink | undefined;
  /** A session started on `link` (before anyone sees it). */
  started(session: CallSession, link: ServerLink): void;
  /** A session ended; `callsLeft` are still in progress. */
  ended(session: CallSession, callsLeft: number): void;
  /** The application's `onCallEnded`. */
  onCallEnded: ((ended: CallEnded) => void) | undefined;
}

/**
 * The application's book of calls: the call sessions and bridge sessions in progress, made and
 * crossed out here, with the observables of calls starting and ending.
 */
export class CallSessions {
  /** Each call session as it starts. */
  readonly calls$: Observable<CallSession>;
  /** How each call ended, as its session ends. */
  readonly callEnded$: Observable<CallEnded>;
  readonly #sessions = new Set<CallSession>();
  readonly #bridges = new Set<BridgeSession>();
  readonly #started = new Subject<CallSession>();
  readonly #ended = new Subject<CallEnded>();

  constructor(private readonly host: CallSessionsHost) {
    this.calls$ = this.#started.asObservable();
    this.callEnded$ = this.#ended.asObservable();
  }

  /** The call sessions in progress (live: do not change calls while going through it). */
  get all(): ReadonlySet<CallSession> {
    return this.#sessions;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** The bridge sessions in progress. */
  get bridges(): ReadonlySet<BridgeSession> {
    return this.#bridges;
  }

  /** The session of a call by its channel id. */
  call(channelId: string): CallSession | undefined {
    for (const s of this.#sessions) if (s.channelId === channelId) return s;
    return undefined;
  }

  /** The calls in progress on `link`. */
  on(link: ServerLink): CallSession[] {
    return [...this.#sessions].filter((s) => this.host.linkOf(s) === link);
  }

  /** The bridge sessions on `link`'s server. */
  bridgesOn(link: ServerLink): BridgeSession[] {
    return [...this.#bridges].filter((b) => b.server.name === link.name);
  }

  /** Starts the session of a call (its machine starts when its channel enters the application). */
  start(
    link: ServerLink,
    channelId: string,
    direction: 'inbound' | 'outbound',
    app: string | undefined,
    machine?: AnyStateMachine,
  ): CallSession {
    const { host } = this;
    const session = new CallSession(link, {
      channelId,
      direction,
      ...(app === undefined ? {} : { app }),
      sharedStream: host.sharedStream,
      ...(host.store ? { store: host.store } : {}),
      machineFor: host.machines.for(link.name, direction, machine),
      onEnded: this.#onEnded,
    });
    this.#sessions.add(session);
    host.started(session, link);
    host.metrics.callStarted(direction);
    this.#started.next(session);
    return session;
  }

  /** Starts the session of a call from its record (see `CallSession.restore`). */
  restore(link: ServerLink, record: CallRecord): void {
    this.start(link, record.channelId, record.direction, record.app).restore(record);
  }

  /**
   * Places an outbound call on `link` into the application `app` (see `Application.originate`):
   * its session is started first, so no event is missed; a refused request ends it `failed`.
   */
  async originate(
    link: ServerLink,
    channelId: string,
    app: string,
    machine: AnyStateMachine | undefined,
    params: Omit<ChannelsOriginateParams, 'app' | 'channelId'>,
  ): Promise<CallSession> {
    const session = this.start(link, channelId, 'outbound', app, machine);
    try {
      await link.client.channels.originate({ ...params, app, channelId });
    } catch (error) {
      session.end('failed');
      throw error;
    }
    return session;
  }

  /** Creates a bridge on `link`'s server with its bridge session, kept here until it ends. */
  async createBridge(
    link: ServerLink,
    options: Omit<BridgeSessionOptions, 'sharedStream'>,
  ): Promise<BridgeSession> {
    const bridge = new BridgeSession(link, { ...options, sharedStream: this.host.sharedStream }, (b) =>
      this.#bridges.delete(b),
    );
    this.#bridges.add(bridge);
    try {
      await bridge.create();
    } catch (error) {
      bridge.end();
      throw error;
    }
    return bridge;
  }

  /** Ends every call (see `CallSession.end`); returns how many. */
  endAll(outcome: 'detached' | 'drained' | 'stopped', hangUp = false): number {
    const sessions = [...this.#sessions];
    for (const s of sessions) s.end(outcome, hangUp);
    return sessions.length;
  }

  /**
   * Tells every call the application drains (`call.draining` with the deadline), lets them
   * finish until `deadlineMs` of `clock` time, then hangs up the ones left. Resolves when no call
   * is left.
   */
  async drain(deadlineMs: number, clock: Clock): Promise<void> {
    const { logger } = this.host;
    const deadline = clock.now() + deadlineMs;
    logger.info({ activeCalls: this.size, deadlineMs }, 'draining');
    for (const s of this.#sessions) s.call?.send({ type: 'call.draining', deadline });
    if (this.size === 0) return;
    const timer = clock.setTimeout(() => {
      logger.warn({ activeCalls: this.size }, 'drain deadline passed; hanging up the calls left');
      this.endAll('drained', true);
    }, deadlineMs);
    await Promise.all([...this.#sessions].map((s) => s.done));
    clock.clearTimeout(timer);
  }

  /** No more calls: the observables complete. */
  complete(): void {
    this.#started.complete();
    this.#ended.complete();
  }

  readonly #onEnded = (session: CallSession, ended: CallEnded): void => {
    const { host } = this;
    this.#sessions.delete(session);
    host.ended(session, this.#sessions.size);
    host.metrics.callEnded(ended);
    this.#ended.next(ended);
    try {
      host.onCallEnded?.(ended);
    } catch (error) {
      host.logger.error({ err: error, call: ended.callId }, 'onCallEnded callback threw');
    }
  };
}
