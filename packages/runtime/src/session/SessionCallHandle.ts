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
import { bindHandle } from '../call/bindHandle.ts';
import { PERSIST, type PersistedValue } from '../snapshot/liveValues.ts';
import { bindResources } from '../call/bindResources.ts';
import type { CallHandle, CallRequestOptions, ResourceCleanup, ServerInfo } from '../call/CallHandle.ts';
import type { OperationId, ParamsOf, ResultOf } from '../call/OperationId.ts';
import type { StepFailure } from '../call/StepFailure.ts';
import type { DigitBuffer } from './DigitBuffer.ts';
import type { ResumeNotes } from './ResumeNotes.ts';

/** What a call handle needs from its session (implemented by `CallSession`). */
export interface HandleSession {
  readonly id: string;
  readonly channelId: string;
  readonly direction: 'inbound' | 'outbound';
  readonly server: ServerInfo;
  readonly client: RestClient;
  readonly clock: Clock;
  readonly callLogger: Logger;
  readonly events$: Observable<StreamEvent>;
  readonly digits: DigitBuffer;
  readonly resumeNotes: ResumeNotes;
  readonly signal: AbortSignal;
  readonly ended: boolean;
  send(
    operation: string,
    params: Readonly<Record<string, unknown>>,
    options?: CallRequestOptions,
  ): Promise<unknown>;
  pickId(kind: 'channel' | 'bridge' | 'playback' | 'recording' | 'snoop'): string;
  own(kind: ResourceKind, id: string, cleanup: ResourceCleanup): void;
  disown(kind: ResourceKind, id: string): void;
  tell(event: { readonly type: string; readonly [key: string]: unknown }): void;
  reportFailure(failure: StepFailure): void;
  queue(name: string, settings?: QueueSettings): CallQueue;
}

/**
 * The {@link CallHandle} a call machine gets: a thin view of its session. A class, so its methods
 * are shared by every call (an object literal of closures cost ~20 functions per call), and its
 * channel handle and bound resource APIs are made on first use.
 */
export class SessionCallHandle implements CallHandle {
  readonly app: string;
  readonly args: readonly string[];
  readonly start: StasisStart;
  readonly #session: HandleSession;
  #channel: ChannelHandle | undefined;
  /** The channel `#channel` is bound to: a transfer may give the call another one (followReplacement). */
  #channelBoundTo: string | undefined;
  #api: RestResources | undefined;

  constructor(session: HandleSession, start: StasisStart) {
    this.#session = session;
    this.start = start;
    this.app = start.application;
    this.args = start.args ?? [];
  }

  get id(): string {
    return this.#session.id;
  }
  get channelId(): string {
    return this.#session.channelId;
  }
  get direction(): 'inbound' | 'outbound' {
    return this.#session.direction;
  }
  get server(): ServerInfo {
    return this.#session.server;
  }
  get client(): RestClient {
    return this.#session.client;
  }
  get clock(): Clock {
    return this.#session.clock;
  }
  get logger(): Logger {
    return this.#session.callLogger;
  }
  get events$(): Observable<StreamEvent> {
    return this.#session.events$;
  }
  get digits(): DigitBuffer {
    return this.#session.digits;
  }
  get resumeNotes(): ResumeNotes {
    return this.#session.resumeNotes;
  }
  get signal(): AbortSignal {
    return this.#session.signal;
  }
  get ended(): boolean {
    return this.#session.ended;
  }

  get channel(): ChannelHandle {
    const session = this.#session;
    if (this.#channel === undefined || this.#channelBoundTo !== session.channelId) {
      this.#channelBoundTo = session.channelId;
      this.#channel = bindHandle('channel', { channelId: session.channelId }, (operation, params, options) =>
        session.send(operation, params, options),
      ) as ChannelHandle;
    }
    return this.#channel;
  }

  get api(): RestResources {
    const session = this.#session;
    this.#api ??= bindResources((operation, params, options) => session.send(operation, params, options));
    return this.#api;
  }

  request<Op extends OperationId>(
    operation: Op,
    params: ParamsOf<Op>,
    options?: CallRequestOptions,
  ): Promise<ResultOf<Op>> {
    return this.#session.send(operation, params as Readonly<Record<string, unknown>>, options) as Promise<
      ResultOf<Op>
    >;
  }

  pickId(kind: 'channel' | 'bridge' | 'playback' | 'recording' | 'snoop'): string {
    return this.#session.pickId(kind);
  }

  own(kind: ResourceKind, id: string, options?: { readonly cleanup?: ResourceCleanup }): void {
    this.#session.own(kind, id, options?.cleanup ?? true);
  }

  disown(kind: ResourceKind, id: string): void {
    this.#session.disown(kind, id);
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    return this.#session.clock.setTimeout(callback, delayMs);
  }

  clearTimer(handle: TimerHandle | undefined): void {
    this.#session.clock.clearTimeout(handle);
  }

  send(event: { readonly type: string; readonly [key: string]: unknown }): void {
    this.#session.tell(event);
  }

  queue(name: string, settings?: QueueSettings): CallQueue {
    return this.#session.queue(name, settings);
  }

  reportFailure(failure: StepFailure): void {
    this.#session.reportFailure(failure);
  }

  /** In a call's snapshot the handle is a marker: the process restoring the call puts its own handle there. */
  [PERSIST](): PersistedValue {
    return { $ringflow: 'call' };
  }
}
