import type { Clock, TimerHandle } from '@ringflow/client';

interface ConsoleTimer {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/** How many timers one step may fire at one instant (a timer re-arming itself at 0 ms ends there). */
const FIRED_PER_STEP = 1000;

/**
 * The clock of `ringflow dev`: the simulator and the flows both run on it. It follows the wall
 * clock until it is paused; paused, time stands still (no playback ends, no timeout expires) and
 * moves only when told to, to its next timer ({@link advanceToNext}), as a test's virtual clock
 * does. Resumed, it follows the wall clock again from where it stood (it is behind it by the
 * time spent paused, less the time stepped).
 *
 * @example
 * const clock = new ConsoleClock();
 * clock.pause();
 * clock.setTimeout(() => console.log('fired'), 5000);
 * clock.advanceToNext(); // prints at once; clock.now() moved 5 s
 */
export class ConsoleClock implements Clock {
  /** Waiting timers, earliest first (ties in the order they were set). */
  private readonly timers: ConsoleTimer[] = [];
  private nextId = 1;
  /** The wall clock's distance to this one while it runs (≤ 0 once it was paused). */
  private skew = 0;
  /** Where time stands while paused; undefined while it runs. */
  private frozenAt: number | undefined;
  private wake: ReturnType<typeof setTimeout> | undefined;

  now(): number {
    return this.frozenAt ?? Date.now() + this.skew;
  }

  get paused(): boolean {
    return this.frozenAt !== undefined;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer = { id: this.nextId++, due: this.now() + Math.max(0, delayMs), callback };
    let at = this.timers.length;
    while (at > 0 && this.timers[at - 1]!.due > timer.due) at--;
    this.timers.splice(at, 0, timer);
    if (at === 0) this.arm();
    return { id: timer.id } as TimerHandle;
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (!handle || typeof handle !== 'object' || !('id' in handle)) return;
    const at = this.timers.findIndex((t) => t.id === handle.id);
    if (at < 0) return;
    this.timers.splice(at, 1);
    if (at === 0) this.arm();
  }

  /** When the next timer is due (ms since the epoch), or undefined when none waits. */
  nextDue(): number | undefined {
    return this.timers[0]?.due;
  }

  /** Stops time where it is. */
  pause(): void {
    if (this.frozenAt !== undefined) return;
    this.frozenAt = this.now();
    this.arm();
  }

  /** Lets time run again from where it stands (timers due meanwhile fire at once, in order). */
  resume(): void {
    if (this.frozenAt === undefined) return;
    this.skew = this.frozenAt - Date.now();
    this.frozenAt = undefined;
    this.arm();
  }

  /**
   * Paused: moves time to the next timer and fires it (and the others due at that instant, those
   * it sets at 0 ms included). Answers whether there was one.
   */
  advanceToNext(): boolean {
    const next = this.timers[0];
    if (this.frozenAt === undefined || !next) return false;
    this.frozenAt = Math.max(this.frozenAt, next.due);
    this.fireDue();
    return true;
  }

  /** Drops every timer (the console stops). */
  close(): void {
    this.timers.length = 0;
    clearTimeout(this.wake);
    this.wake = undefined;
  }

  /** Fires the timers due now, earliest first. */
  private fireDue(): void {
    for (let fired = 0; fired < FIRED_PER_STEP; fired++) {
      const next = this.timers[0];
      if (!next || next.due > this.now()) break;
      this.timers.shift();
      try {
        next.callback();
      } catch (error) {
        // Told as Node tells a throwing timer's error, without skipping the timers after it.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    this.arm();
  }

  /** While time runs, one wall-clock timer wakes this clock for its earliest timer. */
  private arm(): void {
    clearTimeout(this.wake);
    this.wake = undefined;
    const next = this.timers[0];
    if (this.frozenAt !== undefined || !next) return;
    this.wake = setTimeout(() => this.fireDue(), Math.max(0, next.due - this.now()));
  }
}
