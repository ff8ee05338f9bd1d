import { UsageError } from './Command.ts';
import type { CommandIo } from './CommandIo.ts';

/** How a command prints: for people (text) or for programs (one JSON object per line). */
export type OutputFormat = 'text' | 'json';

/**
 * Reads `--format text|json`; without it, text on a terminal and JSON lines otherwise.
 *
 * @example outputFormat(undefined, io) // 'json' when stdout is a pipe
 */
export function outputFormat(value: string | undefined, io: CommandIo): OutputFormat {
  if (value === undefined) return io.isTerminal ? 'text' : 'json';
  if (value === 'text' || value === 'json') return value;
  throw new UsageError(`--format: expected text or json, got '${value}'`);
}
