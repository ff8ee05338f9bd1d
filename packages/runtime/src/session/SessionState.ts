import type { Logger } from 'pino';
import type { CallHandle } from '../call/CallHandle.ts';
import { RecordWriter } from '../snapshot/RecordWriter.ts';
import type { CallEventStream } from './CallEventStream.ts';
import type { CallMachine } from './CallMachine.ts';
import type { CallEnded, SessionOutcome } from './CallEnded.ts';
import { CallReport } from './CallReport.ts';
import { CallRequests } from './CallRequests.ts';
import type { CallSession, CallSessionOptions } from './CallSession.ts';
import { OwnedResources } from './OwnedResources.ts';
import type { ResumeNotes } from './ResumeNotes.ts';
import type { SessionHost } from './SessionHost.ts';
import type { SessionPhase } from './SessionPhase.ts';
import type { EventOwner } from './SessionRouter.ts';
import { SharedStreamCopies } from './SharedStreamCopies.ts';

/** The phase of a session whose channel has not entered the application yet. */
const WAITING: SessionPhase = { name: 'waiting' };

/**
 * What one call session knows, shared by the session and the parts that act for it (how it
 * starts: `sessionStart.ts`, where its events go: `callEvents.ts`, how it sends its requests:
 * `sendRequest.ts`, how it ends: `sessionEnd.ts`): where it is in its life (one
 * {@link SessionPhase}), where its channel is, its application and start time, its handle and
 * machine once started, how it ended, the parts it is made of, and its log. The facts change in
 * the session and those parts only; nothing outside the session sees this object.
 */
export class SessionState {
  /** The session this is the state of (its public face: the handle and the application see it). */
  readonly session: CallSession;
  /** The server link the call lives on. */
  readonly host: SessionHost;
  readonly options: CallSessionOptions;
  /** The resources the call owns (its channel first). */
  readonly owned: OwnedResources<EventOwner>;
  /** The call's REST requests in flight. */
  readonly requests: CallRequests;
  /** Which copy of each event the call takes (only on a stream shared by several applications). */
  readonly copies: SharedStreamCopies | undefined;
  /** Writes the call's record to the application's store (only with one). */
  readonly recorder: RecordWriter | undefined;

  phase: SessionPhase = WAITING;
  /**
   * The call's channel is on its way out of the application (its StasisEnd came, or a hangup or
   * continue was sent): nothing must hang it up again.
   */
  leaving = false;
  /** Started from a channel listing after a gap (see `CallSession.adopt`). */
  adopted = false;
  /** The application the call belongs to (known once its channel entered it, or at originate). */
  app: string | undefined;
  /** Clock time the call started (in the process that started it, for a restored call). */
  startedAt: number;
  /** The handle the machine got (made as the call starts, just before the machine). */
  handle: CallHandle | undefined;
  /** The call's machine, once started. */
  machine: CallMachine | undefined;
  /**
   * Aborted when the call ends; made on first use (most calls never ask for it, and an
   * AbortController with its EventTarget was a visible share of the memory per call).
   */
  abort: AbortController | undefined;
  /** The call's `events$`; made when first asked for (most compiled flows never subscribe). */
  eventStream: CallEventStream | undefined;
  /** What the call actors under way started on the server; made on first use (see ResumeNotes). */
  resumeNotes: ResumeNotes | undefined;
  /** Resolves the session's `done` with the outcome (see `endSession`). */
  readonly resolveDone: (outcome: SessionOutcome) => void;
  /** How the call ended, once it has. */
  result: CallEnded | undefined;
  /** What the call's end will say; made with the first fact it needs (most live calls have none). */
  #report: CallReport | undefined;
  /** Channels of the call found gone (404); made on the first one. */
  #gone: Set<string> | undefined;
  /** The call's logger, made the first time the call logs (see {@link logger}). */
  #logger: Logger | undefined;
  /** The application bound to the call's log records: the one its StasisStart named. */
  #logApp: string | undefined;

  /**
   * Makes the session's parts.
   * @param session the session: the owner of the call's routes, and what the parts act for
   * @param resolveDone resolves the session's `done`
   */
  constructor(
    session: CallSession,
    host: SessionHost,
    options: CallSessionOptions,
    resolveDone: (outcome: SessionOutcome) => void,
  ) {
    this.session = session;
    this.host = host;
    this.options = options;
    this.resolveDone = resolveDone;
    this.app = options.app;
    this.startedAt = session.clock.now();
    this.copies = options.sharedStream ? new SharedStreamCopies() : undefined;
    this.owned = new OwnedResources(host.router, host.server.asteriskId, session);
    this.requests = new CallRequests(host.client, session);
    this.recorder = options.store
      ? new RecordWriter(
          options.store,
          options.channelId,
          () => session.record(),
          () => this.logger,
          (error) => {
            this.log('warn', 'another process took the call over; this one lets it go untouched', {
              err: error,
            });
            session.end('detached');
          },
        )
      : undefined;
  }

  /**
   * The call's logger: one pino child of the runtime's (call id, server, and the application once
   * the call started), made on first use. At a production level most calls log nothing, and a
   * child per call was a visible share of the memory per call.
   */
  get logger(): Logger {
    if (this.#logger === undefined) {
      const runtimeLogger = this.host.logger;
      // A server link's logger already carries `server`: binding it again would write the key twice.
      const bound = 'server' in runtimeLogger.bindings();
      this.#logger = runtimeLogger.child({
        call: this.session.channelId,
        ...(bound ? {} : { server: this.host.server.name }),
        ...(this.#logApp === undefined ? {} : { app: this.#logApp }),
      });
    }
    return this.#logger;
  }

  /** Logs one record if the runtime's logger takes its level; only then is the call's logger made. */
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, details?: object): void {
    if (!this.host.logger.isLevelEnabled(level)) return;
    if (details === undefined) this.logger[level](message);
    else this.logger[level](details, message);
  }

  /**
   * The call entered its application `app`: later log records carry it. A logger made before
   * (without the application) is dropped, and made again on the next record.
   */
  bindApplicationToLog(app: string): void {
    this.#logApp = app;
    this.#logger = undefined;
  }

  /** True once the session has ended. */
  get ended(): boolean {
    return this.phase.name === 'ended';
  }

  /** What the call's end will say (see {@link CallReport}), made on first use. */
  report(): CallReport {
    this.#report ??= new CallReport();
    return this.#report;
  }

  /** Notes a channel of the call found gone; false when it already was. */
  noteGone(channelId: string): boolean {
    this.#gone ??= new Set();
    if (this.#gone.has(channelId)) return false;
    this.#gone.add(channelId);
    return true;
  }

  /** True for a channel of the call found gone: nothing to hang up. */
  isGone(channelId: string): boolean {
    return this.#gone?.has(channelId) === true;
  }
}
