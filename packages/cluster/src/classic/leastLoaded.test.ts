import { describe, expect, it } from 'vitest';
import { leastLoaded } from './leastLoaded.ts';

/** Assigns `calls` new calls one after the other (none ends); resolves with each worker's count. */
function spread(workers: readonly string[], holder: string | undefined, calls: number): Map<string, number> {
  const loads = new Map(workers.map((w) => [w, 0]));
  for (let i = 0; i < calls; i++) {
    const to = leastLoaded(loads, holder, 'fallback');
    loads.set(to, loads.get(to)! + 1);
  }
  return loads;
}

describe('leastLoaded: the worker a new call goes to', () => {
  it('gives the event connection holder fewer calls: it publishes every call of the cluster besides its own', () => {
    // 2 workers: 3 of every 8 calls to the holder.
    expect(Object.fromEntries(spread(['a', 'b'], 'a', 80))).toEqual({ a: 30, b: 50 });
    // 4 workers: 1 of every 16 to the holder.
    expect(Object.fromEntries(spread(['a', 'b', 'c', 'd'], 'b', 80))).toEqual({ a: 25, b: 5, c: 25, d: 25 });
  });

  it('spreads evenly with no holder among the workers, the first name first on ties; the fallback when none is known', () => {
    expect(Object.fromEntries(spread(['b', 'a'], undefined, 9))).toEqual({ a: 5, b: 4 });
    expect(Object.fromEntries(spread(['a', 'b'], 'gone', 10))).toEqual({ a: 5, b: 5 });
    expect(leastLoaded(new Map(), 'a', 'me')).toBe('me');
  });
});
