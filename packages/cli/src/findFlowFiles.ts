import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const FLOW_FILE = /\.ya?ml$/;
const SCENARIO_FILE = /\.test\.ya?ml$/;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'coverage']);

/**
 * The flow files named on a command line: files as given, folders searched recursively for
 * `*.yaml` / `*.yml` flows (scenario files `*.test.yaml` and node_modules, .git, dist, coverage
 * skipped), in order, each folder's finds sorted. A path that does not exist is in `missing`.
 *
 * @example
 * const { files } = await findFlowFiles(['flows/']); // ['flows/conference.yaml', 'flows/ivr.yaml', ...]
 */
export async function findFlowFiles(
  paths: readonly string[],
): Promise<{ files: string[]; missing: string[] }> {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = async (dir: string, found: string[]): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(full, found);
      } else if (FLOW_FILE.test(entry.name) && !SCENARIO_FILE.test(entry.name)) found.push(full);
    }
  };
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info) missing.push(path);
    else if (info.isDirectory()) {
      const found: string[] = [];
      await walk(path, found);
      files.push(...found.sort());
    } else files.push(path);
  }
  return { files, missing };
}
