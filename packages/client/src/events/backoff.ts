import { ErrorCode, RingflowError } from '../errors/index.ts';

/** How long to wait between reconnection attempts. */
export interface BackoffSettings {
  /** Ceiling of the first delay. Default 500 ms. */
  readonly initialDelayMs: number;
  /** The ceiling never grows past this. Default 30 s. */
  readonly maxDelayMs: number;
  /** Each attempt multiplies the ceiling by this. Default 2. */
  readonly multiplier: number;
  /**
   * Share of the ceiling taken off at random, 0..1: a delay lies in
   * `[ceiling * (1 - jitter), ceiling]`, so many clients that lost the same server do not all come
   * back in the same millisecond. Default 0.5.
   */
  readonly jitter: number;
  /**
   * A connection that stayed open this long resets the attempt count, so a server that accepts and
   * drops at once is not hammered at the first delay. Default 10 s.
   */
  readonly resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  multiplier: 2,
  jitter: 0.5,
  resetAfterMs: 10_000,
};

/**
 * Fills in defaults and checks the settings; throws a `CONFIG` RingflowError naming the field.
 *
 * @example
 * resolveBackoff({ initialDelayMs: 100 }); // other fields from DEFAULT_BACKOFF
 */
export function resolveBackoff(partial: Partial<BackoffSettings> = {}): BackoffSettings {
  const settings = { ...DEFAULT_BACKOFF, ...partial };
  const check = (ok: boolean, field: keyof BackoffSettings, expected: string) => {
    if (!ok) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `options.backoff.${field} is ${String(settings[field])}: expected ${expected}.`,
      );
    }
  };
  check(
    Number.isFinite(settings.initialDelayMs) && settings.initialDelayMs > 0,
    'initialDelayMs',
    'a number of milliseconds above 0',
  );
  check(
    Number.isFinite(settings.maxDelayMs) && settings.maxDelayMs >= settings.initialDelayMs,
    'maxDelayMs',
    `milliseconds at least initialDelayMs (${settings.initialDelayMs})`,
  );
  check(
    Number.isFinite(settings.multiplier) && settings.multiplier >= 1,
    'multiplier',
    'a number of at least 1',
  );
  check(settings.jitter >= 0 && settings.jitter <= 1, 'jitter', 'a share between 0 and 1');
  check(settings.resetAfterMs >= 0, 'resetAfterMs', 'milliseconds, 0 or more');
  return settings;
}

/**
 * The delay before reconnection attempt `attempt` (1 for the first retry): the ceiling
 * `min(maxDelayMs, initialDelayMs * multiplier^(attempt-1))`, minus a random share of up to
 * `jitter` of it. `random` returns a number in [0, 1), like Math.random.
 *
 * @example
 * backoffDelay(1, DEFAULT_BACKOFF, () => 0);   // 500
 * backoffDelay(3, DEFAULT_BACKOFF, () => 0.5); // 2000 * (1 - 0.25) = 1500
 */
export function backoffDelay(attempt: number, settings: BackoffSettings, random: () => number): number {
  const ceiling = Math.min(
    settings.maxDelayMs,
    settings.initialDelayMs * settings.multiplier ** Math.max(0, attempt - 1),
  );
  const share = Math.min(1, Math.max(0, random()));
  return Math.round(ceiling * (1 - settings.jitter * share));
}
