/** The days of the week, as a window names them. */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * When contacts may be called, in each contact's own time zone: on `days`, from `from` to `to`
 * (local `HH:MM`, `to` excluded).
 *
 * @example { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '20:00', timezone: 'Europe/Paris' }
 */
export interface CallWindow {
  readonly days: readonly Weekday[];
  readonly from: string;
  readonly to: string;
  /** The zone of contacts that name none (IANA); default UTC. */
  readonly timezone?: string;
}

interface LocalTime {
  readonly weekday: Weekday;
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** Minutes since local midnight. */
  readonly minutes: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The local date, weekday and time of `at` in `timezone`. */
function localTime(at: number, timezone: string): LocalTime {
  let format = formats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(timezone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(at)) parts[part.type] = part.value;
  return {
    weekday: (parts.weekday ?? 'Sun').toLowerCase() as Weekday,
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** `HH:MM` as minutes since midnight; undefined when it is not a time of day. */
export function minutesOfDay(text: string): number | undefined {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** True when `timezone` is a zone this runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** True when a contact in `timezone` may be called at `at`. */
export function isOpen(window: CallWindow, at: number, timezone = window.timezone ?? 'UTC'): boolean {
  const local = localTime(at, timezone);
  const from = minutesOfDay(window.from) ?? 0;
  const to = minutesOfDay(window.to) ?? 24 * 60;
  return window.days.includes(local.weekday) && local.minutes >= from && local.minutes < to;
}

/**
 * The first moment at or after `at` when a contact in `timezone` may be called (minute
 * precision); undefined when the window never opens (no days). Walks forward a minute at a time
 * within a closed stretch's hour, an hour at a time otherwise: at most a week of steps.
 */
export function nextOpening(
  window: CallWindow,
  at: number,
  timezone = window.timezone ?? 'UTC',
): number | undefined {
  if (window.days.length === 0) return undefined;
  const MINUTE = 60_000;
  let t = at;
  const limit = at + 8 * 24 * 60 * MINUTE;
  while (t <= limit) {
    if (isOpen(window, t, timezone)) return t;
    const local = localTime(t, timezone);
    const from = minutesOfDay(window.from) ?? 0;
    // Far from the opening time of day: an hour at a time (time zones shift by whole or half
    // hours at most; the minute steps near the opening find it exactly).
    const untilFrom = (from - local.minutes + 24 * 60) % (24 * 60);
    const step = untilFrom > 60 ? 60 - (local.minutes % 60) : 1;
    t = (Math.floor(t / MINUTE) + step) * MINUTE;
  }
  return undefined;
}
