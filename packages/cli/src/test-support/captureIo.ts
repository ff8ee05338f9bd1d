import type { CommandIo } from '../CommandIo.ts';

/**
 * A command's input/output for tests: what it writes to stdout and stderr, kept as text.
 *
 * @example
 * const c = captureIo(); await main(['validate', 'flows/'], c.io); expect(c.err()).toContain('RF303');
 */
export function captureIo(extra: Partial<CommandIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => err.push(t),
      ...extra,
    } satisfies CommandIo,
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
