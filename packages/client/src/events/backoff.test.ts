import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors/index.ts';
import { backoffDelay, DEFAULT_BACKOFF, resolveBackoff } from './backoff.ts';
import { seededRandom } from './test-support/seededRandom.ts';

describe('backoffDelay', () => {
  it('doubles the ceiling up to the maximum', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => backoffDelay(n, DEFAULT_BACKOFF, () => 0));
    expect(ceilings).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('takes at most the jitter share off', () => {
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.5)).toBe(1500);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.999999)).toBe(1000);
    expect(backoffDelay(3, { ...DEFAULT_BACKOFF, jitter: 0 }, () => 0.7)).toBe(2000);
  });

  it('stays within [ceiling * (1 - jitter), ceiling] for any settings and randomness', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.double({ min: 1, max: 4, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (attempt, initial, extra, multiplier, jitter, r) => {
          const settings = resolveBackoff({
            initialDelayMs: initial,
            maxDelayMs: initial + extra,
            multiplier,
            jitter,
          });
          const ceiling = Math.min(settings.maxDelayMs, initial * multiplier ** (attempt - 1));
          const delay = backoffDelay(attempt, settings, () => r);
          expect(delay).toBeLessThanOrEqual(Math.round(ceiling));
          expect(delay).toBeGreaterThanOrEqual(Math.round(ceiling * (1 - jitter)) - 1);
        },
      ),
    );
  });

  it('spreads clients apart: a seeded source gives varied delays within bounds', () => {
    const random = seededRandom(7);
    const delays = Array.from({ length: 20 }, () => backoffDelay(4, DEFAULT_BACKOFF, random));
    expect(new Set(delays).size).toBeGreaterThan(10);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(4000);
    }
  });
});

describe('resolveBackoff', () => {
  it('fills in defaults', () => {
    expect(resolveBackoff({ initialDelayMs: 100 })).toEqual({ ...DEFAULT_BACKOFF, initialDelayMs: 100 });
  });

  it.each([
    [{ initialDelayMs: 0 }, 'initialDelayMs'],
    [{ initialDelayMs: 1000, maxDelayMs: 10 }, 'maxDelayMs'],
    [{ multiplier: 0.5 }, 'multiplier'],
    [{ jitter: 2 }, 'jitter'],
    [{ resetAfterMs: -1 }, 'resetAfterMs'],
  ])('refuses %j naming %s', (partial, field) => {
    expect(() => resolveBackoff(partial)).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG, message: expect.stringContaining(field) }),
    );
  });
});
