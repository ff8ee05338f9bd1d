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

function earlier(a: VirtualTimer, b: VirtualTimer): boolean {
  return a.due < b.due || (a.due === b.due && a.id < b.id);
}

/**
 * A binary min-heap of timers ordered by (due, id). Cleared timers are removed lazily: they stay
 * in the heap until they reach the top, where `live` tells they are gone. This keeps set, clear
 * and fire at O(log n), which matters when tests run thousands of calls with timers each.
 */
class TimerHeap {
  private readonly heap: VirtualTimer[] = [];

  push(timer: VirtualTimer): void {
    const heap = this.heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!earlier(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  /** The earliest timer still in `live`, dropping cleared ones on the way. */
  peek(live: ReadonlyMap<number, VirtualTimer>): VirtualTimer | undefined {
    while (this.heap.length > 0 && !live.has(this.heap[0]!.id)) this.pop();
    return this.heap[0];
  }

  pop(): VirtualTimer | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && earlier(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && earlier(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  }

  /** Drops cleared timers when they outnumber live ones, so clear-heavy code cannot grow the heap. */
  compact(live: ReadonlyMap<number, VirtualTimer>): void {
    if (this.heap.length <= 64 || this.heap.length < 2 * live.size) return;
    const kept = this.heap.filter((t) => live.has(t.id));
    this.heap.length = 0;
    for (const t of kept) this.push(t);
  }
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
  private readonly live = new Map<number, VirtualTimer>();
  private readonly queue = new TimerHeap();

  /** @param startMs the initial time, milliseconds since the epoch. */
  constructor(startMs = Date.UTC(2026, 0, 1, 9, 0, 0)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    const timer = { id, due: this.current + Math.max(0, delayMs), callback };
    this.live.set(id, timer);
    this.queue.push(timer);
    return { id } as TimerHandle;
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle && typeof handle === 'object' && 'id' in handle) {
      this.live.delete(handle.id as number);
      this.queue.compact(this.live);
    }
  }

  /** Number of timers waiting to fire (leak checks count them). */
  get pendingTimers(): number {
    return this.live.size;
  }

  /** Due time of the next timer, or undefined when none is set. */
  nextDue(): number | undefined {
    return this.queue.peek(this.live)?.due;
  }

  private takeNext(limit: number): VirtualTimer | undefined {
    const next = this.queue.peek(this.live);
    if (!next || next.due > limit) return undefined;
    this.queue.pop();
    this.live.delete(next.id);
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
