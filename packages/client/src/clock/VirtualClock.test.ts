import { describe, expect, it } from 'vitest';
import { VirtualClock } from './VirtualClock.ts';

describe('VirtualClock', () => {
  it('fires timers in due order when time is advanced, and not before', async () => {
    const clock = new VirtualClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b@200'), 200);
    clock.setTimeout(() => fired.push('a@100'), 100);
    clock.setTimeout(() => fired.push('c@100'), 100);
    await clock.advance(99);
    expect(fired).toEqual([]);
    await clock.advance(101);
    expect(fired).toEqual(['a@100', 'c@100', 'b@200']);
    expect(clock.now()).toBe(200);
  });

  it('lets promise work settle between timers, so chained async timers run in one advance', async () => {
    const clock = new VirtualClock(0);
    const sleep = (ms: number) => new Promise<void>((r) => clock.setTimeout(r, ms));
    const log: number[] = [];
    const task = (async () => {
      await sleep(1000);
      log.push(clock.now());
      await sleep(1000);
      log.push(clock.now());
    })();
    await clock.advance(2000);
    await task;
    expect(log).toEqual([1000, 2000]);
  });

  it('clears timers and counts the pending ones', async () => {
    const clock = new VirtualClock(0);
    const h = clock.setTimeout(() => {
      throw new Error('must not fire');
    }, 10);
    expect(clock.pendingTimers).toBe(1);
    clock.clearTimeout(h);
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(100);
  });

  it('runs until idle but stops a self re-arming timer at the limit', async () => {
    const clock = new VirtualClock(0);
    let ticks = 0;
    const tick = () => {
      ticks++;
      clock.setTimeout(tick, 1000);
    };
    clock.setTimeout(tick, 1000);
    const elapsed = await clock.runUntilIdle(10_000);
    expect(ticks).toBe(10);
    expect(elapsed).toBe(10_000);
  });
});

describe('VirtualClock with many timers', () => {
  it('keeps due order across thousands of interleaved sets and clears', async () => {
    const clock = new VirtualClock(0);
    const fired: number[] = [];
    const handles = [];
    for (let i = 0; i < 5000; i++) {
      const due = (i * 7919) % 10_000;
      handles.push(clock.setTimeout(() => fired.push(due), due));
    }
    for (let i = 0; i < 5000; i += 2) clock.clearTimeout(handles[i]);
    expect(clock.pendingTimers).toBe(2500);
    await clock.advance(10_000);
    expect(fired).toHaveLength(2500);
    expect([...fired].sort((a, b) => a - b)).toEqual(fired);
    expect(clock.pendingTimers).toBe(0);
  });
});
