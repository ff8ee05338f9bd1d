import { describe, expect, it } from 'vitest';
import { isOpenAt, parseOpeningHours } from './openingHours.ts';

const hours = (spec: string) => {
  const parsed = parseOpeningHours(spec);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.hours;
};
// 2026-01-05 is a Monday; Paris is UTC+1 in January.
const paris = (day: number, hh: number, mm = 0) => Date.UTC(2026, 0, 4 + day, hh - 1, mm);

describe('opening hours', () => {
  it('reads days, ranges and several periods, in the given time zone', () => {
    const h = hours('Mon-Fri 09:00-12:30,13:30-18:00; Sat 09:00-12:00');
    expect(isOpenAt(paris(1, 9), h, 'Europe/Paris')).toBe(true);
    expect(isOpenAt(paris(1, 8, 59), h, 'Europe/Paris')).toBe(false);
    expect(isOpenAt(paris(1, 12, 30), h, 'Europe/Paris')).toBe(false); // end is exclusive
    expect(isOpenAt(paris(1, 13, 30), h, 'Europe/Paris')).toBe(true);
    expect(isOpenAt(paris(6, 11), h, 'Europe/Paris')).toBe(true);
    expect(isOpenAt(paris(0, 11), h, 'Europe/Paris')).toBe(false); // Sunday
    expect(isOpenAt(paris(1, 9), h, 'UTC')).toBe(false); // 08:00 UTC
  });

  it('runs ranges past midnight into the next day, and 24h', () => {
    const night = hours('Fri 22:00-06:00');
    expect(isOpenAt(paris(5, 23), night, 'Europe/Paris')).toBe(true);
    expect(isOpenAt(paris(6, 5, 59), night, 'Europe/Paris')).toBe(true);
    expect(isOpenAt(paris(6, 6), night, 'Europe/Paris')).toBe(false);
    expect(isOpenAt(paris(3, 3), hours('Daily 24h'), 'Europe/Paris')).toBe(true);
  });

  it('explains what is wrong with a bad text', () => {
    expect(parseOpeningHours('Mon-Fry 09:00-17:00')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"Mon-Fry"'),
    });
    expect(parseOpeningHours('Mon 9-17')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('HH:MM-HH:MM'),
    });
    expect(parseOpeningHours('')).toMatchObject({ ok: false });
  });
});
