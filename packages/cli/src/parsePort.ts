import { UsageError } from './Command.ts';

/**
 * Reads a TCP port number; `0` means "any free port".
 *
 * @example
 * parsePort('8088', '--port'); // 8088
 */
export function parsePort(text: string, option: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    throw new UsageError(
      `${option}: expected a whole number from 0 to 65535 (0 picks a free port), got '${text}'`,
    );
  }
  return Number(text);
}
