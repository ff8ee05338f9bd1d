import { describe, expect, it } from 'vitest';
import { parseCInt } from './parseCInt.ts';

describe('parseCInt', () => {
  it('reads like atoi', () => {
    expect(parseCInt('2')).toBe(2);
    expect(parseCInt('  -3')).toBe(-3);
    expect(parseCInt('+7')).toBe(7);
    expect(parseCInt('42abc')).toBe(42);
    expect(parseCInt('abc')).toBe(0);
    expect(parseCInt('')).toBe(0);
    expect(parseCInt(undefined)).toBe(0);
  });

  it('wraps to 32 bits, after saturating at the limits of a long', () => {
    expect(parseCInt('4294967297')).toBe(1);
    expect(parseCInt('2147483648')).toBe(-2147483648);
    expect(parseCInt('99999999999999999999999')).toBe(-1);
    expect(parseCInt(2 ** 32 + 5)).toBe(5);
    expect(parseCInt(3.9)).toBe(3);
    expect(parseCInt(Number.NaN)).toBe(0);
  });
});
