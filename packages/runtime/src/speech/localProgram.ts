import { type ChildProcess, spawn } from 'node:child_process';

/** The error for a program that could not be started, saying which packages to install. */
export function programMissing(program: string, packages: string, cause?: unknown): Error {
  return new Error(
    `speech: the program '${program}' was not found: install it (apt-get install -y ${packages})`,
    {
      cause,
    },
  );
}

/** The exit status of `sh` when the program it was to run is not found. */
export const NOT_FOUND_STATUS = 127;

/**
 * Starts a local speech program with stdin, stdout and stderr as pipes. A program that cannot
 * be started ('ENOENT') is reported through `onFailed` with {@link programMissing}'s error,
 * naming `packages` (Debian's). With `stdinIsFile`, the program gets a real pipe as its stdin
 * through `sh -c 'cat | ...'`, for programs that open `/dev/stdin` (Node gives a child a
 * socket, which `open` refuses); the program missing then shows as exit status 127.
 */
export function startProgram(
  program: string,
  args: readonly string[],
  packages: string,
  onFailed: (error: Error) => void,
  options: { readonly stdinIsFile?: boolean } = {},
): ChildProcess {
  const child = options.stdinIsFile
    ? spawn('sh', ['-c', 'cat | exec "$0" "$@"', program, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.once('error', (error: NodeJS.ErrnoException) => {
    onFailed(
      error.code === 'ENOENT'
        ? programMissing(program, packages, error)
        : new Error(`speech: ${program}: ${error.message}`, { cause: error }),
    );
  });
  // A program that exits before reading all its input must not crash the process (EPIPE).
  child.stdin?.on('error', () => {});
  return child;
}
