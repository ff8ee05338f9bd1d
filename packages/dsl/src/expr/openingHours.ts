/**
 * Opening hours: `Mon-Fri 09:00-12:00,13:30-17:00; Sat 10:00-13:00`.
 * Rules are separated by `;`. Each rule is a day or a day range (Mon Tue Wed Thu Fri Sat Sun;
 * ranges may wrap, `Fri-Mon`; `Daily` means every day) followed by one or more time ranges
 * separated by commas. `HH:MM-HH:MM` is start-inclusive, end-exclusive; an end before the start
 * runs past midnight into the next day; `24h` is the whole day.
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

interface OpeningRule {
  /** Days of the week (0 = Sunday) the rule starts on. */
  readonly days: ReadonlySet<number>;
  /** Minute-of-day ranges; `end` may exceed 1440 for ranges past midnight. */
  readonly ranges: readonly { readonly start: number; readonly end: number }[];
}

export interface OpeningHours {
  readonly rules: readonly OpeningRule[];
}

function parseDay(text: string): number | undefined {
  const i = DAYS.findIndex((d) => d.toLowerCase() === text.toLowerCase());
  return i < 0 ? undefined : i;
}

function parseMinute(text: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 24 || min > 59 || (h === 24 && min > 0)) return undefined;
  return h * 60 + min;
}

/**
 * Parses an opening-hours text, or explains what is wrong with it.
 * @example parseOpeningHours('Mon-Fri 09:00-17:00') // { ok: true, hours: {...} }
 */
export function parseOpeningHours(
  spec: string,
): { ok: true; hours: OpeningHours } | { ok: false; problem: string } {
  const rules: OpeningRule[] = [];
  const parts = spec
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0)
    return { ok: false, problem: 'opening hours are empty; write e.g. "Mon-Fri 09:00-17:00"' };
  for (const part of parts) {
    const [dayText, ...rest] = part.split(/\s+/);
    const timeText = rest.join('');
    if (!dayText || timeText === '')
      return { ok: false, problem: `"${part}" needs days then times, e.g. "Mon-Fri 09:00-17:00"` };
    const days = new Set<number>();
    if (dayText.toLowerCase() === 'daily') for (let d = 0; d < 7; d++) days.add(d);
    else {
      const [from, to] = dayText.split('-');
      const a = from === undefined ? undefined : parseDay(from);
      const b = to === undefined ? a : parseDay(to);
      if (a === undefined || b === undefined)
        return {
          ok: false,
          problem: `"${dayText}" is not a day or day range; use Mon..Sun, e.g. "Mon-Fri", or "Daily"`,
        };
      for (let d = a; ; d = (d + 1) % 7) {
        days.add(d);
        if (d === b) break;
      }
    }
    const ranges: { start: number; end: number }[] = [];
    for (const range of timeText.split(',')) {
      if (range.toLowerCase() === '24h') {
        ranges.push({ start: 0, end: 1440 });
        continue;
      }
      const [s, e] = range.split('-');
      const start = s === undefined ? undefined : parseMinute(s);
      const end = e === undefined ? undefined : parseMinute(e);
      if (start === undefined || end === undefined)
        return {
          ok: false,
          problem: `"${range}" is not a time range; write HH:MM-HH:MM, e.g. "09:00-17:00", or 24h`,
        };
      ranges.push({ start, end: end <= start ? end + 1440 : end });
    }
    rules.push({ days, ranges });
  }
  return { ok: true, hours: { rules } };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Checks that a time zone name is known to this Node (IANA names such as Europe/Paris). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Day of week (0 = Sunday) and minute of day of an instant in a time zone. */
function localTime(instantMs: number, zone: string): { day: number; minute: number } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, format);
  }
  const parts = format.formatToParts(new Date(instantMs));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: parseDay(get('weekday')) ?? 0, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

/**
 * Whether the instant falls inside the opening hours, read in the given time zone.
 * @example isOpenAt(clock.now(), parse('Mon-Fri 09:00-17:00'), 'Europe/Paris')
 */
export function isOpenAt(instantMs: number, hours: OpeningHours, zone = 'UTC'): boolean {
  const { day, minute } = localTime(instantMs, zone);
  const yesterday = (day + 6) % 7;
  for (const rule of hours.rules) {
    for (const range of rule.ranges) {
      if (rule.days.has(day) && minute >= range.start && minute < Math.min(range.end, 1440)) return true;
      // A range past midnight that started yesterday.
      if (range.end > 1440 && rule.days.has(yesterday) && minute < range.end - 1440) return true;
    }
  }
  return false;
}
