import type { Clock, TimerHandle } from '../clock/Clock.ts';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import type { RequestRecord } from './RestClient.ts';
import type {
  RestTransport,
  TransportCancel,
  TransportExchange,
  TransportRequest,
  TransportResponse,
} from './RestTransport.ts';
import { scrubCredentials } from './scrubCredentials.ts';
import { sendAsDispatch } from './sendAsDispatch.ts';

/** What every request of one client shares. */
export interface PendingRequestContext {
  readonly transport: RestTransport;
  /** Schedules the reply deadline and measures durations, so virtual time drives them in tests. */
  readonly clock: Clock;
  /** The client's `onRequest` observer, if any. */
  readonly onRequest: ((record: RequestRecord) => void) | undefined;
}

/** Turns a reply into the caller's result; throws (an `HttpError`) for error statuses. */
export type ReplyInterpreter<T> = (request: TransportRequest, reply: TransportResponse) => T;

/**
 * One REST request in flight, from the client's side: a promise that settles exactly once, with
 * the interpreted reply, `TIMEOUT`, `ABORTED` (the caller's signal) or the transport's failure
 * (`NETWORK` unless it is already a RingflowError), reported once to `onRequest`.
 *
 * It is the transport's {@link TransportExchange}, so a request costs one object, one promise
 * and, only once the request is on a connection, one timer: no AbortController, no closures per
 * event. The deadline starts when the transport says the request was written on a connection
 * (`dispatched`), so time spent waiting for a pooled connection does not count; the caller's
 * signal cancels the request wherever it is. A late failure after the promise settled is ignored:
 * it never becomes an unhandled rejection.
 *
 * @example
 * const result = await PendingRequest.start(context, 'channels.answer', request, 10_000, signal,
 *   (req, reply) => interpretReply(op, req, reply));
 */
export class PendingRequest<T> implements TransportExchange {
  private settled = false;
  private armed = false;
  private timer: TimerHandle | undefined;
  private handle: TransportCancel | undefined;
  /** Why the client gave up before the transport returned its handle; cancelled once it does. */
  private cancelReason: RingflowError | undefined;
  private resolve!: (value: T) => void;
  private reject!: (error: RingflowError) => void;
  private readonly started: number;

  private constructor(
    private readonly context: PendingRequestContext,
    private readonly operation: string,
    private readonly request: TransportRequest,
    private readonly timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly interpret: ReplyInterpreter<T>,
  ) {
    this.started = context.clock.now();
  }

  /**
   * Sends `request` through the context's transport (its `dispatch` when it has one, else `send`
   * with a signal, whose deadline then counts from the call to `send`).
   * @param timeoutMs milliseconds from the request's dispatch to its reply; 0 or Infinity: none.
   */
  static start<T>(
    context: PendingRequestContext,
    operation: string,
    request: TransportRequest,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    interpret: ReplyInterpreter<T>,
  ): Promise<T> {
    const pending = new PendingRequest(context, operation, request, timeoutMs, signal, interpret);
    const promise = new Promise<T>((resolve, reject) => {
      pending.resolve = resolve;
      pending.reject = reject;
    });
    if (signal?.aborted) {
      pending.fail(
        new RingflowError(ErrorCode.ABORTED, `${pending.what()}: cancelled by the caller before it was sent`),
      );
      return promise;
    }
    // An object with handleEvent is a listener: no closure per request.
    signal?.addEventListener('abort', pending);
    const { transport } = context;
    try {
      pending.handle = transport.dispatch
        ? transport.dispatch(request, pending)
        : sendAsDispatch(transport, request, pending);
    } catch (error) {
      pending.failed(error);
    }
    if (pending.cancelReason) pending.handle?.cancel(pending.cancelReason);
    return promise;
  }

  /** `channels.answer (POST /channels/c1/answer)`, for error messages. */
  private what(): string {
    return `${this.operation} (${this.request.method} ${this.request.path})`;
  }

  dispatched(): void {
    if (this.settled || this.armed) return;
    this.armed = true;
    const { timeoutMs } = this;
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      this.timer = this.context.clock.setTimeout(() => this.expire(), timeoutMs);
    }
  }

  replied(reply: TransportResponse): void {
    if (this.settled) return;
    let result: T;
    try {
      result = this.interpret(this.request, reply);
    } catch (caught) {
      this.fail(
        caught instanceof RingflowError
          ? caught
          : new RingflowError(ErrorCode.PROTOCOL, `${this.operation}: could not read the reply`, {
              cause: caught,
            }),
        reply.status,
      );
      return;
    }
    this.finish(reply.status, undefined);
    this.resolve(result);
  }

  failed(error: unknown): void {
    if (this.settled) return;
    if (error instanceof RingflowError) {
      this.fail(error);
      return;
    }
    const detail = error instanceof Error ? error.message : String(error);
    this.fail(
      new RingflowError(
        ErrorCode.NETWORK,
        `${this.what()}: no reply from the server (${scrubCredentials(detail)}); check that it is running and that the url is right`,
        { cause: error },
      ),
    );
  }

  /** The caller's signal fired. */
  handleEvent(): void {
    this.giveUp(new RingflowError(ErrorCode.ABORTED, `${this.what()}: cancelled by the caller`));
  }

  private expire(): void {
    this.timer = undefined;
    this.giveUp(
      new RingflowError(
        ErrorCode.TIMEOUT,
        `${this.what()}: no reply within ${this.timeoutMs} ms of being sent; raise timeoutMs (client or per request) or check the server`,
      ),
    );
  }

  /** Settles with `error` and tells the transport to stop. */
  private giveUp(error: RingflowError): void {
    if (this.settled) return;
    this.fail(error);
    if (this.handle) this.handle.cancel(error);
    else this.cancelReason = error;
  }

  private fail(error: RingflowError, status?: number): void {
    if (this.settled) return;
    this.finish(status, error);
    this.reject(error);
  }

  /** Marks the request settled, releases its timer and listener, reports it once. */
  private finish(status: number | undefined, error: RingflowError | undefined): void {
    this.settled = true;
    if (this.timer !== undefined) {
      this.context.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.signal?.removeEventListener('abort', this);
    const { onRequest } = this.context;
    if (!onRequest) return;
    const record: RequestRecord = {
      operation: this.operation,
      method: this.request.method,
      path: this.request.path,
      ...(status === undefined ? {} : { status }),
      durationMs: this.context.clock.now() - this.started,
      ...(error ? { error } : {}),
    };
    try {
      onRequest(record);
    } catch {
      // A failing metrics observer must not change the outcome of the request it observes.
    }
  }
}
