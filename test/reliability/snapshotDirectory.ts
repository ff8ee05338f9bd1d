import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every entry under a directory with its kind, size, modification time and (for files) a hash of
 * its bytes, skipping `except` (a subtree allowed to change). Two equal snapshots mean nothing
 * was created, removed or written there.
 *
 * @example
 * const before = snapshotDirectory(parent, recordingsDir);
 * // ... fuzz ...
 * expect(snapshotDirectory(parent, recordingsDir)).toEqual(before);
 */
export function snapshotDirectory(root: string, except?: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (path === except) continue;
      const stat = lstatSync(path);
      const rel = path.slice(root.length);
      if (stat.isSymbolicLink()) out[rel] = `link -> ${readlinkSync(path)}`;
      else if (stat.isDirectory()) {
        out[rel] = `dir ${stat.mtimeMs}`;
        walk(path);
      } else
        out[rel] =
          `file ${stat.size} ${stat.mtimeMs} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    }
  };
  walk(root);
  return out;
}
