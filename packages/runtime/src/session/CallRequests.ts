import type { RestClient } from '@ringflow/client';
import type { CallRequestOptions } from '../call/CallHandle.ts';

/**
 * The REST requests of one call in flight: counted (a call ends once they are settled), and
 * cancelled when the call ends if they were sent with a signal of their own (a step's).
 *
 * A request with a signal of its own gets one controller, aborted by that signal or by
 * {@link cancelAll} (no listener on the call's signal per request, which Node's EventTarget
 * makes costly). The call's own signal, one already aborted, or one scoped to the call (a step
 * signal of the call's machine, aborted when the session stops the machine) is used as is. A
 * request without a signal is not cancelled at the end: its reply (or its timeout) comes soon,
 * and cancelling an HTTP/1.1 request in flight closes its pooled connection.
 */
export class CallRequests {
  private pending = 0;
  /** One controller per request sent with a signal of its own; made on the first one. */
  private controllers: Set<AbortController> | undefined;

  /**
   * @param client the REST client of the call's server
   * @param call tells a signal the end of the call aborts anyway (see above)
   */
  constructor(
    private readonly client: RestClient,
    private readonly call: { endAborts(signal: AbortSignal): boolean },
  ) {}

  /** Requests in flight. */
  get inFlight(): number {
    return this.pending;
  }

  /**
   * Sends one request. `signal` (if any) cancels it; so does {@link cancelAll} unless the signal
   * is one the call's end aborts anyway.
   */
  async send(
    operation: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal | undefined,
    timeoutMs: CallRequestOptions['timeoutMs'],
  ): Promise<unknown> {
    const own = signal && !signal.aborted && !this.call.endAborts(signal) ? new AbortController() : undefined;
    const onAbort = own && signal ? () => own.abort(signal.reason) : undefined;
    if (own && signal && onAbort) {
      signal.addEventListener('abort', onAbort, { once: true });
      this.controllers ??= new Set();
      this.controllers.add(own);
    }
    const used = own?.signal ?? signal;
    this.pending++;
    try {
      return await this.client.request(operation, params, {
        ...(used ? { signal: used } : {}),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    } finally {
      if (own && signal && onAbort) {
        signal.removeEventListener('abort', onAbort);
        this.controllers?.delete(own);
      }
      this.pending--;
    }
  }

  /** The call ended: every request sent with a signal of its own is cancelled with `reason`. */
  cancelAll(reason: unknown): void {
    if (!this.controllers) return;
    for (const controller of this.controllers) controller.abort(reason);
    this.controllers.clear();
  }
}
