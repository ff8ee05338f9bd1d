import { ErrorCode, HttpError, RingflowError } from '@ringflow/client';

/** How the runtime retries its own cleanup requests (hang up a channel, destroy a bridge, stop a recording). */
export interface CleanupRetryOptions {
  /** Attempts in all, the first included. Default 3. */
  readonly attempts?: number;
  /** Delay before the second attempt; it doubles for each further one. Default 500 ms. */
  readonly initialDelayMs?: number;
  /** Upper bound of one delay. Default 4000 ms. */
  readonly maxDelayMs?: number;
  /** Source of the jitter, in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
}

/** What became of a cleanup request after its attempts. */
export type CleanupResult = 'done' | 'gone' | 'refused' | 'gave-up';

/**
 * Whether a cleanup request that failed this way may succeed later: no reply (timeout, broken
 * connection) or a server error (500, 503 while overloaded or restarting). A 4xx is the server's
 * considered answer and is not retried; a 404 means the resource is already gone, which is what
 * the cleanup wanted.
 */
export function cleanupFailure(error: unknown): 'gone' | 'retry' | 'refused' {
  if (error instanceof HttpError) {
    if (error.status === 404) return 'gone';
    return error.status >= 500 || error.status === 0 ? 'retry' : 'refused';
  }
  if (error instanceof RingflowError) {
    return error.code === ErrorCode.TIMEOUT || error.code === ErrorCode.NETWORK ? 'retry' : 'refused';
  }
  return 'refused';
}

/**
 * The bounded, jittered backoff of cleanup retries: before attempt n+1, a delay drawn uniformly
 * from [d/2, d] where d = min(initialDelayMs * 2^(n-1), maxDelayMs). The lower half keeps retries
 * from hammering a server that is restarting; the jitter spreads the retries of many calls
 * ended by the same outage.
 *
 * @example
 * const retry = new CleanupRetry({ attempts: 3, random: () => 0.5 });
 * retry.delayBefore(2); // 375 (between 250 and 500)
 */
export class CleanupRetry {
  readonly attempts: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly random: () => number;

  constructor(options: CleanupRetryOptions = {}) {
    const attempts = options.attempts ?? 3;
    if (!Number.isInteger(attempts) || attempts < 1) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `cleanupRetry.attempts is ${String(attempts)}: give a whole number of attempts, 1 or more (1 = no retry).`,
      );
    }
    const initialDelayMs = options.initialDelayMs ?? 500;
    const maxDelayMs = options.maxDelayMs ?? 4000;
    if (!(initialDelayMs >= 0) || !(maxDelayMs >= initialDelayMs)) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `cleanupRetry delays are initialDelayMs ${initialDelayMs}, maxDelayMs ${maxDelayMs}: give 0 <= initialDelayMs <= maxDelayMs.`,
      );
    }
    this.attempts = attempts;
    this.initialDelayMs = initialDelayMs;
    this.maxDelayMs = maxDelayMs;
    this.random = options.random ?? Math.random;
  }

  /** The delay to wait before attempt `attempt` (2 or more). */
  delayBefore(attempt: number): number {
    const ceiling = Math.min(this.initialDelayMs * 2 ** Math.max(0, attempt - 2), this.maxDelayMs);
    return Math.round(ceiling / 2 + (ceiling / 2) * this.random());
  }
}
