import { type CallWindow, type RetryRules, WEEKDAYS, type Weekday } from '@ringflow/runtime';
import { UsageError } from '../Command.ts';

/**
 * `--window mon-fri,09:00-20:00` (days as a range or a list, then local hours, `to` excluded).
 *
 * @example parseWindow('mon-fri,09:00-20:00', 'Europe/Paris') // { days: ['mon',...,'fri'], from: '09:00', to: '20:00', timezone: 'Europe/Paris' }
 */
export function parseWindow(text: string, timezone: string | undefined): CallWindow {
  const match = /^([a-z,-]+),(\d\d:\d\d)-(\d\d:\d\d)$/.exec(text.trim().toLowerCase());
  const hint = `--window: expected days and hours such as mon-fri,09:00-20:00 or sat,sun,10:00-14:00, got '${text}'`;
  if (!match) throw new UsageError(hint);
  const [, dayText = '', from = '', to = ''] = match;
  const days = new Set<Weekday>();
  for (const part of dayText.split(',')) {
    const [first, last] = part.split('-') as [string, string | undefined];
    const a = WEEKDAYS.indexOf(first as Weekday);
    const b = last === undefined ? a : WEEKDAYS.indexOf(last as Weekday);
    if (a < 0 || b < 0) throw new UsageError(`${hint} (days: ${WEEKDAYS.join(' ')})`);
    for (let i = a; ; i = (i + 1) % 7) {
      days.add(WEEKDAYS[i]!);
      if (i === b) break;
    }
  }
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
  if (
    minutes(from) >= minutes(to) ||
    minutes(to) > 24 * 60 ||
    Number(from.slice(3)) > 59 ||
    Number(to.slice(3)) > 59
  )
    throw new UsageError(
      `--window: the hours go from an earlier to a later time of one day (00:00-24:00), got '${from}-${to}'`,
    );
  return {
    days: WEEKDAYS.filter((d) => days.has(d)),
    from,
    to: to === '24:00' ? '23:59' : to,
    ...(timezone ? { timezone } : {}),
  };
}

/**
 * `--retry busy=3x10m` (repeatable): an outcome, how many more attempts, and the wait before each.
 *
 * @example parseRetries(['busy=3x10m', 'machine=1x2h'], parseDuration) // { busy: { times: 3, afterMs: 600000 }, machine: { times: 1, afterMs: 7200000 } }
 */
export function parseRetries(
  items: readonly string[],
  parseDuration: (text: string) => number | undefined,
): RetryRules {
  const rules: Record<string, { times: number; afterMs: number }> = {};
  for (const item of items) {
    const match = /^([A-Za-z][\w-]*)=(\d+)x(\S+)$/.exec(item.trim());
    const afterMs = match ? parseDuration(match[3]!) : undefined;
    if (!match || afterMs === undefined)
      throw new UsageError(
        `--retry: expected outcome=<times>x<wait> such as busy=3x10m or noAnswer=2x30m, got '${item}'`,
      );
    if (rules[match[1]!]) throw new UsageError(`--retry: ${match[1]} is given twice`);
    rules[match[1]!] = { times: Number(match[2]), afterMs };
  }
  return rules;
}
