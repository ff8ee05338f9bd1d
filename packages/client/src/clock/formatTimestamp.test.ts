import { describe, expect, it } from 'vitest';
import { formatTimestamp } from './formatTimestamp.ts';

describe('formatTimestamp', () => {
  it('writes UTC with milliseconds and a +0000 offset', () => {
    expect(formatTimestamp(Date.UTC(2026, 10, 22, 3, 47, 11, 718))).toBe('2026-11-22T03:47:11.718+0000');
  });

  it('gives each millisecond its own text, also when called again with an earlier one', () => {
    const first = Date.UTC(2026, 0, 4, 10, 0, 0, 1);
    expect(formatTimestamp(first)).toBe('2026-01-04T10:00:00.001+0000');
    expect(formatTimestamp(first + 1)).toBe('2026-01-04T10:00:00.002+0000');
    expect(formatTimestamp(first)).toBe('2026-01-04T10:00:00.001+0000');
  });
});
