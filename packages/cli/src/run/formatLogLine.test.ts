import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { formatLogLine } from './formatLogLine.ts';

describe('formatLogLine', () => {
  it('turns a pino record into one line for people, without JSON braces', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (s: string) => lines.push(formatLogLine(s)) });
    logger
      .child({ server: 'pbx', call: 'c1' })
      .warn({ state: 'menu', status: 404, why: 'no such channel' }, 'step failed');
    expect(lines).toEqual([
      expect.stringMatching(
        /^\d\d:\d\d:\d\d\.\d{3} warn step failed {2}server=pbx call=c1 state=menu status=404 why="no such channel"\n$/,
      ),
    ]);
    expect(lines[0]).not.toMatch(/[{}]/);
  });
});
