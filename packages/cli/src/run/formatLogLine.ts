const LEVELS: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
/** Keys every pino record has, shown in the line's head or left out (process facts). */
const HEAD_KEYS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v']);

function valueText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value && typeof value === 'object' && 'message' in value && 'type' in value)
    return JSON.stringify(
      `${String((value as { type: unknown }).type)}: ${String((value as { message: unknown }).message)}`,
    );
  return JSON.stringify(value);
}

/**
 * One pino record (a JSON line) as a line for people, so that `--format text` never shows JSON:
 * `12:00:01.250 warn step failed  call=c1 state=menu status=404`.
 *
 * @example formatLogLine('{"level":40,"time":0,"msg":"x","call":"c1"}\n') // '00:00:00.000 warn x  call=c1\n'
 */
export function formatLogLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof record.time === 'number' ? new Date(record.time).toISOString().slice(11, 23) : '';
  const level = LEVELS[record.level as number] ?? String(record.level ?? '');
  const fields = Object.entries(record)
    .filter(([key]) => !HEAD_KEYS.has(key))
    .map(([key, value]) => `${key}=${valueText(value)}`);
  const head = [time, level, String(record.msg ?? '')].filter((part) => part !== '').join(' ');
  return `${head}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}\n`;
}
