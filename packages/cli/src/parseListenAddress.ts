import { UsageError } from './Command.ts';
import { parsePort } from './parsePort.ts';

/** Where `--listen` waits for servers: host, port and, when given, the one path servers dial. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
  readonly path?: string;
}

/**
 * Reads `--listen host:port[/path]` (`127.0.0.1:8765`, `0.0.0.0:8765/ari-app`, `[::1]:8765`).
 *
 * @example
 * parseListenAddress('127.0.0.1:8765/ari-call'); // { host: '127.0.0.1', port: 8765, path: '/ari-call' }
 */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/[\]]+):(\d+)(\/.*)?$/.exec(text);
  if (!match) {
    throw new UsageError(`--listen: expected host:port or host:port/path (127.0.0.1:8765), got '${text}'`);
  }
  const host = match[1]!.replace(/^\[|\]$/g, '');
  const port = parsePort(match[2]!, '--listen');
  return match[3] ? { host, port, path: match[3] } : { host, port };
}
