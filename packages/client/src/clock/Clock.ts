/** An opaque timer handle returned by {@link Clock.setTimeout}. */
export type TimerHandle = { readonly __timer: true } | object;

/**
 * The one source of time for ringflow. Product code never calls `Date.now()` or the global
 * `setTimeout` directly: it takes a Clock, so tests can run hours of call time in milliseconds.
 * The shape matches what XState's `clock` option expects.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
}

/** The real clock: wall time and Node timers. Timers are unref'd-safe to clear with `undefined`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, Math.max(0, delayMs)),
  clearTimeout: (handle) => {
    if (handle !== undefined) clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
