import type { CallQueue } from '../queue/CallQueue.ts';
import type { QueueSettings } from '../queue/QueueState.ts';
import type {
  ChannelHandle,
  Clock,
  ResourceKind,
  RestClient,
  RestResources,
  StasisStart,
  StreamEvent,
  TimerHandle,
} from '@ringflow/client';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { DigitBuffer } from '../session/DigitBuffer.ts';
import type { ResumeNotes } from '../session/ResumeNotes.ts';
import type { OperationId, ParamsOf, ResultOf } from './OperationId.ts';
import type { StepFailure } from './StepFailure.ts';

/** Which server a call lives on. */
export interface ServerInfo {
  /** The name given in the application's options (or the server's URL host). */
  readonly name: string;
  /** The server's `asterisk_id`, stamped on every event it sends. */
  readonly asteriskId: string;
}

/** Per-request options of {@link CallHandle.request}. */
export interface CallRequestOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * What the runtime does on the server with a resource a call owns when the call ends: `true`
 * removes it (hangs the channel up, destroys the bridge), `false` leaves it, `'when-empty'`
 * destroys a bridge shared with other calls (a conference room) only when nobody is left in it.
 */
export type ResourceCleanup = boolean | 'when-empty';

/**
 * What a call machine gets in its input: everything it needs to drive one call, bound to the
 * server the call lives on. Requests made through it are counted (the call ends once they are
 * settled), those sent with a signal are cancelled when the call ends (a request without one runs
 * to its reply or timeout: cancelling an HTTP/1.1 request in flight closes its pooled
 * connection), and a 404 on the call's own channels becomes a `call.gone` event instead of a
 * failure.
 *
 * @example
 * const machine = setup({ types: { input: {} as CallInput } }).createMachine({
 *   context: ({ input }) => ({ call: input.call }),
 *   entry: ({ context }) => context.call.logger.info({ args: context.call.args }, 'call started'),
 * });
 */
export interface CallHandle {
  /** The session id: the id of the call's main channel. */
  readonly id: string;
  readonly channelId: string;
  /** The call's channel, every channel operation bound to its id (tracked like `request`). */
  readonly channel: ChannelHandle;
  readonly direction: 'inbound' | 'outbound';
  /** The application the channel entered. */
  readonly app: string;
  /** The arguments of the `Stasis(app,args...)` dialplan call or of `appArgs` at origination. */
  readonly args: readonly string[];
  /** The StasisStart event that started the machine. */
  readonly start: StasisStart;
  readonly server: ServerInfo;
  /**
   * The REST client's resource APIs bound to this call (`call.api.channels.play(...)`): its
   * requests are tracked like `request`'s (counted, cancelled at the end when sent with a signal, a 404 on the
   * call's channels becomes `call.gone`). For code written against the client's shape. Its
   * methods are shared by every call (call them as methods, `call.api.channels.play(...)`, not
   * detached), unlike the client's own, which are made once per client and work detached.
   */
  readonly api: RestResources;
  /** The REST client of the call's server, untracked: prefer `request` or `api`, which the session counts and cancels. */
  readonly client: RestClient;
  readonly clock: Clock;
  /** A child logger carrying `call`, `app` and `server`. */
  readonly logger: Logger;
  /** Every event about the call's resources: its channel, its playbacks and recordings, its snoop and dialled channels, its bridges. Completes when the call ends. */
  readonly events$: Observable<StreamEvent>;
  /** The type-ahead buffer of DTMF digits pressed on the call's channel. */
  readonly digits: DigitBuffer;
  /**
   * What call actors under way started on the server, kept in the call's record so a restored
   * actor awaits it rather than starting it again (see `callActor`'s `resume`).
   */
  readonly resumeNotes: ResumeNotes;
  /** Aborted when the session ends. */
  readonly signal: AbortSignal;
  /** True once the session has ended. */
  readonly ended: boolean;

  /**
   * Sends any operation of the interface on the call's server.
   *
   * @example
   * await call.request('channels.setChannelVar', { channelId: call.channelId, variable: 'LANG', value: 'fr' });
   */
  request<Op extends OperationId>(
    operation: Op,
    params: ParamsOf<Op>,
    options?: CallRequestOptions,
  ): Promise<ResultOf<Op>>;
  /** A fresh resource id for a channel, bridge, playback, recording or snoop channel of this call. */
  pickId(kind: 'channel' | 'bridge' | 'playback' | 'recording' | 'snoop'): string;
  /**
   * Makes the call own a resource: its events reach this call from now on. Do it before creating
   * the resource ("stage, then execute"), so its first event cannot be missed. `cleanup` says
   * what happens to it on the server when the call ends: `true` (default) removes it (hangs the
   * channel up, destroys the bridge), `false` leaves it, `'when-empty'` destroys a bridge shared
   * with other calls (a conference room) only when nobody is left in it.
   */
  own(kind: ResourceKind, id: string, options?: { readonly cleanup?: ResourceCleanup }): void;
  /** Stops routing a resource's events to this call. */
  disown(kind: ResourceKind, id: string): void;
  /** A timer on the call's clock, cleared when the call ends. */
  setTimer(callback: () => void, delayMs: number): TimerHandle;
  clearTimer(handle: TimerHandle | undefined): void;
  /** Sends an event to the call's machine (helpers report progress this way). */
  send(event: { readonly type: string; readonly [key: string]: unknown }): void;
  /**
   * Reports a step of the call's logic that failed: logged (`warn`), counted by flow, step and
   * status, and kept for the call's end. Compiled flows report every step failure.
   */
  reportFailure(failure: StepFailure): void;
  /**
   * The application's call queue `name` on the call's server, shared by all its calls: made on
   * first use with the settings the application was given for it, else with `settings`.
   * @example call.queue('support').join({ callId: call.id, tell: (e) => call.send(e) });
   */
  queue(name: string, settings?: QueueSettings): CallQueue;
}

/** The input every call machine receives. */
export interface CallInput {
  readonly call: CallHandle;
}

/** The event a call machine receives when a request finds one of the call's channels gone (404). */
export interface CallGoneEvent {
  readonly type: 'call.gone';
  readonly channelId: string;
  /** The operation that found out (`channels.play`). */
  readonly operation: string;
}

/** Sent to every active call when the application starts draining. */
export interface CallDrainingEvent {
  readonly type: 'call.draining';
  /** Clock time (ms) when calls still active are hung up. */
  readonly deadline: number;
}

/** Events the runtime itself sends to a call machine, besides the server's events. */
export type RuntimeCallEvent = CallGoneEvent | CallDrainingEvent;

/** Everything a call machine may receive: the server's events about the call, and the runtime's. */
export type CallEvent = StreamEvent | RuntimeCallEvent;
