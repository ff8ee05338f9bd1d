import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';

/** A pino logger that keeps every line in memory, parsed, for assertions on what was logged. */
export interface CapturedLogs {
  readonly logger: Logger;
  /** Every line written, as text (what a log shipper would receive). */
  readonly lines: string[];
  /** Every line written, parsed. */
  records(): Record<string, unknown>[];
}

/**
 * Captures a logger's output in memory. pino writes synchronously to a plain Writable, so every
 * line is there as soon as the call that logged it returns.
 *
 * @example
 * const logs = captureLogs('debug');
 * createApplication({ ..., logger: logs.logger });
 * expect(logs.records().filter((r) => r.msg === 'call ended')).toHaveLength(500);
 */
export function captureLogs(level: pino.LevelWithSilent = 'info'): CapturedLogs {
  const lines: string[] = [];
  let partial = '';
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = partial + chunk.toString();
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) if (line !== '') lines.push(line);
      done();
    },
  });
  const logger = pino({ level }, sink);
  return {
    logger,
    lines,
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
