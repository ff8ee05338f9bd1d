import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'coverage']);

/** What a list of paths, folders and globs named. */
export interface FoundFiles {
  /** Matching files, sorted, each once. */
  readonly files: string[];
  /** Paths that do not exist, and globs that matched nothing. */
  readonly missing: string[];
}

const GLOB_CHARS = /[*?[{]/;

/** A glob as a regular expression over `/`-separated relative paths: `*`, `?`, `**`, `[...]`, `{a,b}`. */
function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i);
      if (end < 0) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) out += '\\{';
      else {
        out += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((part) => part.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = end;
      }
    } else out += /[.+^$()|\\]/.test(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${out}$`);
}

async function walk(dir: string, onFile: (path: string) => void): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) await walk(full, onFile);
    } else onFile(full);
  }
}

/**
 * The files named by a list of paths: a file as is, a folder searched recursively for files that
 * `accept` takes (node_modules, .git, dist and coverage skipped), a glob (`flows/*.yaml`,
 * `flows/**\/*.test.yaml`, quoted so the shell leaves it alone) for its matches that `accept` takes. Paths that do
 * not exist and globs that match nothing are listed in `missing`.
 *
 * @example
 * await findFiles(['flows', 'more/*.yaml'], (f) => f.endsWith('.yaml'));
 */
export async function findFiles(
  paths: readonly string[],
  accept: (file: string) => boolean,
): Promise<FoundFiles> {
  const files = new Set<string>();
  const missing: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) {
      await walk(path, (file) => {
        if (accept(file)) files.add(file);
      });
      continue;
    }
    if (info) {
      files.add(path);
      continue;
    }
    if (!GLOB_CHARS.test(path)) {
      missing.push(path);
      continue;
    }
    // Walk from the part of the path before the first glob character.
    const normalized = path.split(sep).join('/');
    const firstGlob = normalized.search(GLOB_CHARS);
    const baseEnd = normalized.lastIndexOf('/', firstGlob);
    const base = baseEnd < 0 ? '.' : normalized.slice(0, baseEnd) || '/';
    const pattern = globToRegExp(baseEnd < 0 ? normalized : normalized.slice(baseEnd + 1));
    let matched = 0;
    await walk(base, (file) => {
      const rel = relative(base, file).split(sep).join('/');
      if (pattern.test(rel) && accept(file)) {
        files.add(base === '.' ? rel : file);
        matched++;
      }
    });
    if (matched === 0) missing.push(path);
  }
  return { files: [...files].sort(), missing };
}
