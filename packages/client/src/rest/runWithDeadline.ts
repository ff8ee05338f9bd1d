import type { Clock, TimerHandle } from '../clock/Clock.ts';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import { scrubCredentials } from './scrubCredentials.ts';

export interface DeadlineOptions {
  /** Schedules the timeout, so virtual time can drive it in tests. */
  readonly clock: Clock;
  /** Milliseconds before the work is aborted with `TIMEOUT`; 0 or Infinity: no timeout. */
  readonly timeoutMs: number;
  /** The caller's cancel signal: aborting it rejects with `ABORTED`. */
  readonly signal?: AbortSignal | undefined;
  /** Names the work in error messages: `channels.answer (POST /channels/c1/answer)`. */
  readonly what: string;
}

/** Any failure as a RingflowError: ours pass through, anything else is a network failure. */
function asNetworkError(error: unknown, what: string): RingflowError {
  if (error instanceof RingflowError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new RingflowError(
    ErrorCode.NETWORK,
    `${what}: no reply from the server (${scrubCredentials(detail)}); check that it is running and that the url is right`,
    { cause: error },
  );
}

/**
 * Runs `work` with a deadline and a cancel signal. The returned promise settles exactly once:
 * with the work's result, with `TIMEOUT` when `timeoutMs` passes on the clock, with `ABORTED` when
 * the caller's signal fires, or with the work's failure (as `NETWORK` unless it is already a
 * RingflowError). On timeout or abort the signal given to `work` is aborted so it can stop, and a
 * late failure of the work is swallowed: it must never surface as an unhandled rejection. The
 * timer is cleared and the abort listener removed as soon as the promise settles.
 *
 * @example
 * const reply = await runWithDeadline((signal) => transport.send({ ...req, signal }),
 *   { clock: systemClock, timeoutMs: 5000, signal: userSignal, what: 'asterisk.ping (GET /asterisk/ping)' });
 */
export function runWithDeadline<T>(
  work: (signal: AbortSignal) => Promise<T>,
  options: DeadlineOptions,
): Promise<T> {
  const { clock, timeoutMs, signal, what } = options;
  if (signal?.aborted) {
    return Promise.reject(
      new RingflowError(ErrorCode.ABORTED, `${what}: cancelled by the caller before it was sent`),
    );
  }
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: TimerHandle | undefined;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const stop = (error: RingflowError): void => {
      finish(() => reject(error));
      controller.abort(error);
    };
    const onAbort = (): void =>
      stop(new RingflowError(ErrorCode.ABORTED, `${what}: cancelled by the caller`));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      timer = clock.setTimeout(
        () =>
          stop(
            new RingflowError(
              ErrorCode.TIMEOUT,
              `${what}: no reply within ${timeoutMs} ms; raise timeoutMs (client or per request) or check the server`,
            ),
          ),
        timeoutMs,
      );
    }
    let running: Promise<T>;
    try {
      running = work(controller.signal);
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(asNetworkError(error, what))),
    );
  });
}
