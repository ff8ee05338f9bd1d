/**
 * Exit codes of the `ringflow` command, the same for every subcommand, so scripts can tell a
 * mistake in the command line from a failure while working.
 */
export const ExitCode = {
  /** Done (a server command stopped by SIGINT or SIGTERM also ends with 0). */
  OK: 0,
  /** The command was well formed but failed: a file could not be read, a port was taken... */
  FAILURE: 1,
  /** The command line was wrong: unknown command or option, bad value. Nothing was done. */
  USAGE: 2,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
