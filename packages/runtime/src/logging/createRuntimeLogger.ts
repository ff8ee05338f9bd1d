import { type Logger, type LoggerOptions, pino } from 'pino';

/**
 * Paths pino blanks out wherever they appear in a log record. The runtime never logs credentials
 * on purpose; this is the safety net for objects logged whole (server options, request headers).
 */
export const REDACTED_PATHS: readonly string[] = [
  'password',
  'username',
  'auth',
  'authorization',
  'apiKey',
  'api_key',
  '*.password',
  '*.username',
  '*.auth',
  '*.authorization',
  '*.apiKey',
  '*.api_key',
  'headers.authorization',
  '*.headers.authorization',
  'servers[*].password',
  'servers[*].username',
];

const REDACT = { paths: [...REDACTED_PATHS], censor: '[redacted]' };

/**
 * The runtime's root logger. Takes the caller's pino logger (a child with redaction is made) or
 * builds one at `info` level writing JSON to stdout.
 *
 * @example
 * const logger = createRuntimeLogger({ level: 'debug' });
 * logger.info({ server: { url, password } }, 'connecting'); // password is '[redacted]'
 */
export function createRuntimeLogger(from?: Logger | LoggerOptions): Logger {
  if (isLogger(from)) return from.child({}, { redact: REDACT });
  return pino({ level: 'info', ...from, redact: REDACT });
}

function isLogger(value: unknown): value is Logger {
  return typeof value === 'object' && value !== null && typeof (value as Logger).child === 'function';
}

/**
 * A server URL fit for logs: user info and `api_key` removed.
 *
 * @example
 * safeUrl('http://u:p@pbx:8088/ari?api_key=u:p'); // 'http://pbx:8088/ari'
 */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.searchParams.delete('api_key');
    return u.toString().replace(/\?$/, '');
  } catch {
    return '[unparseable url]';
  }
}
