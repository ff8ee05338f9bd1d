import type { Clock, TimerHandle } from '@ringflow/client';

/**
 * A clock that counts the timers set through it and can clear them all at once. Each call session
 * (and its XState actor) runs on its own TrackingClock, so ending a session releases every timer
 * it set, and leak tests can count what is left.
 *
 * @example
 * const clock = new TrackingClock(new VirtualClock());
 * clock.setTimeout(() => {}, 1000);
 * clock.pendingTimers; // 1
 * clock.clearAll();    // 0 again
 */
export class TrackingClock implements Clock {
  private readonly inner: Clock;
  /** Timers pending; made with the first timer (kept small: one TrackingClock per call). */
  private live: Set<TimerHandle> | undefined;

  constructor(inner: Clock) {
    this.inner = inner;
  }

  now(): number {
    return this.inner.now();
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    this.live ??= new Set();
    const live = this.live;
    const handle = this.inner.setTimeout(() => {
      live.delete(handle);
      callback();
    }, delayMs);
    live.add(handle);
    return handle;
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle === undefined) return;
    this.live?.delete(handle);
    this.inner.clearTimeout(handle);
  }

  /** Timers set through this clock that have neither fired nor been cleared. */
  get pendingTimers(): number {
    return this.live?.size ?? 0;
  }

  /** Clears every timer still pending. */
  clearAll(): void {
    if (!this.live) return;
    for (const handle of this.live) this.inner.clearTimeout(handle);
    this.live.clear();
  }
}
