/**
 * What a command may touch of the outside world, passed in so tests can run commands in process:
 * its output streams, and a way to wait for the signal that asks it to stop.
 */
export interface CommandIo {
  /** Results only (what a script would parse). */
  readonly stdout: (text: string) => void;
  /** Diagnostics, warnings and errors. */
  readonly stderr: (text: string) => void;
  /**
   * True when stdout is a terminal a person reads: commands then print for people (live views,
   * colours of nothing but text); otherwise JSON lines for programs. Default false.
   */
  readonly isTerminal?: boolean;
  /**
   * Resolves with the name of the first stop signal (SIGINT or SIGTERM) and calls `onAgain` for
   * each later one. Defaults to the process's own signals.
   */
  readonly waitForStop?: (onAgain: () => void) => Promise<string>;
}

/**
 * Waits for SIGINT or SIGTERM on the current process.
 *
 * @example
 * const signal = await waitForProcessStop(() => process.exit(1)); // 'SIGINT' after Ctrl-C
 */
export function waitForProcessStop(onAgain: () => void): Promise<string> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: string) => {
      if (stopping) {
        onAgain();
        return;
      }
      stopping = true;
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
