import type { CommandIo } from './CommandIo.ts';
import type { ExitCode } from './ExitCode.ts';

/** One `ringflow <name>` subcommand. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The full `--help` text. */
  readonly help: string;
  /** Runs with the arguments after the command name; resolves with the exit code. */
  run(args: readonly string[], io: CommandIo): Promise<ExitCode>;
}

/** A wrong command line, reported by the router with a pointer to `--help`. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Runs a command's argument parser (`node:util` parseArgs), turning its errors into a
 * {@link UsageError}, so every command answers a wrong command line the same way (exit 2).
 *
 * @example
 * const { values, positionals } = parseCommandLine(() => parse(args));
 */
export function parseCommandLine<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
