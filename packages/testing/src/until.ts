/** Options of {@link until}. */
export interface UntilOptions {
  /** How long to wait, in real milliseconds, before failing. Default 30 000. */
  readonly timeoutMs?: number;
  /** How often `check` is asked, in real milliseconds. Default 20. */
  readonly everyMs?: number;
}

/**
 * Waits, in real time, until `check` gives a value (anything but `undefined` or `false`), and
 * resolves with it; rejects after `timeoutMs` saying what it waited for. For tests over real
 * sockets or with other processes, where nothing can be awaited directly; a test on the virtual
 * clock advances the clock instead.
 *
 * @example
 * const session = await until('the call to start', () => app.call('caller-1'));
 * await until('every call to end', () => app.activeCalls().length === 0, { timeoutMs: 10_000 });
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: UntilOptions = {},
): Promise<T> {
  const { timeoutMs = 30_000, everyMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
