import { UsageError } from './Command.ts';
import { parsePort } from './parsePort.ts';

/**
 * Reads `--http [host:]port` (`127.0.0.1:9464`, `0.0.0.0:9464`, `[::1]:9464`, `9464`); a bare
 * port binds to loopback, so nothing is exposed unless asked.
 *
 * @example
 * parseHttpAddress('9464'); // { host: '127.0.0.1', port: 9464 }
 */
export function parseHttpAddress(text: string): { host: string; port: number } {
  if (/^\d+$/.test(text)) return { host: '127.0.0.1', port: parsePort(text, '--http') };
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/[\]\s]+):(\d+)$/.exec(text);
  if (!match) throw new UsageError(`--http: expected host:port or a port (127.0.0.1:9464), got '${text}'`);
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port: parsePort(match[2]!, '--http') };
}
