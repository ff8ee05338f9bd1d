import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const SCENARIO_FILE = /\.test\.ya?ml$/;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'coverage']);

/**
 * The scenario files (`*.test.yaml`) under the given files and folders, sorted; folders are
 * searched recursively (node_modules, .git, dist and coverage skipped). A path that does not
 * exist is reported in `missing`.
 *
 * @example
 * const { files } = await findScenarioFiles(['flows']); // ['flows/ivr.test.yaml']
 */
export async function findScenarioFiles(
  paths: readonly string[],
): Promise<{ files: string[]; missing: string[] }> {
  const files = new Set<string>();
  const missing: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(full);
      } else if (SCENARIO_FILE.test(entry.name)) files.add(full);
    }
  };
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info) missing.push(path);
    else if (info.isDirectory()) await walk(path);
    else files.add(path);
  }
  return { files: [...files].sort(), missing };
}
