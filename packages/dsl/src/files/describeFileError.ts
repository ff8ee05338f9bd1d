const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  ENOTDIR: 'no such file (a part of the path is not a folder)',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EMFILE: 'too many files open',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * Why a file could not be read, as the end of a sentence rather than an errno code.
 *
 * @example `cannot read ${file}: ${describeFileError(error)}` // 'cannot read bad/nope.yaml: no such file'
 */
export function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && Object.hasOwn(REASONS, code)) return REASONS[code]!;
  const message = error instanceof Error ? error.message : String(error);
  // Node's text is "ECODE: words, syscall 'path'": keep the words.
  return /^[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message;
}
