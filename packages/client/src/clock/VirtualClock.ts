import type { Clock, TimerHandle } from './Clock.ts';

interface VirtualTimer {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/** Lets promise callbacks and other queued work run before the next timer fires. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A clock whose time moves only when the test says so. Timers fire in due order (ties in the order
 * they were set); between two timers, pending promise work is allowed to settle, so async code
 * behaves as it would in real time, only without waiting.
 *
 * @example
 * const clock = new VirtualClock();
 * clock.setTimeout(() => console.log('10 s later'), 10_000);
 * await clock.advance(10_000); // prints at once
 */
export class VirtualClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, VirtualTimer>();

  /** @param startMs the initial time, milliseconds since the epoch. */
  constructor(startMs = Date.UTC(2026, 0, 1, 9, 0, 0)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { id, due: this.current + Math.max(0, delayMs), callback });
    return { id } as TimerHandle;
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle && typeof handle === 'object' && 'id' in handle) this.timers.delete(handle.id as number);
  }

  /** Number of timers waiting to fire (leak checks count them). */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Due time of the next timer, or undefined when none is set. */
  nextDue(): number | undefined {
    let next: VirtualTimer | undefined;
    for (const t of this.timers.values())
      if (!next || t.due < next.due || (t.due === next.due && t.id < next.id)) next = t;
    return next?.due;
  }

  private takeNext(limit: number): VirtualTimer | undefined {
    let next: VirtualTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.due > limit) continue;
      if (!next || t.due < next.due || (t.due === next.due && t.id < next.id)) next = t;
    }
    if (next) this.timers.delete(next.id);
    return next;
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.current + Math.max(0, ms));
  }

  /** Moves time forward to `timeMs`, firing every timer due by then. */
  async advanceTo(timeMs: number): Promise<void> {
    await settle();
    for (;;) {
      const timer = this.takeNext(timeMs);
      if (!timer) break;
      this.current = Math.max(this.current, timer.due);
      timer.callback();
      await settle();
    }
    this.current = Math.max(this.current, timeMs);
    await settle();
  }

  /**
   * Fires timers until none is left ("as fast as possible"), stopping after `maxMs` of virtual
   * time so that a timer that re-arms itself forever cannot hang the test.
   * @returns the virtual milliseconds that passed.
   */
  async runUntilIdle(maxMs = 24 * 3600_000): Promise<number> {
    const start = this.current;
    await settle();
    for (;;) {
      const due = this.nextDue();
      if (due === undefined || due > start + maxMs) break;
      await this.advanceTo(due);
    }
    return this.current - start;
  }
}
