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
