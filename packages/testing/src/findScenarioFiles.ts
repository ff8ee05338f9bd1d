import { type FoundFiles, findFiles } from '@ringflow/dsl';

const SCENARIO_FILE = /\.test\.ya?ml$/;

/**
 * The scenario files (`*.test.yaml`) under the given files, folders and globs, sorted; folders
 * are searched recursively (node_modules, .git, dist and coverage skipped). A path that does not
 * exist (or a glob that matches nothing) is reported in `missing`.
 *
 * @example
 * const { files } = await findScenarioFiles(['flows']); // ['flows/ivr.test.yaml']
 */
export function findScenarioFiles(paths: readonly string[]): Promise<FoundFiles> {
  return findFiles(paths, (file) => SCENARIO_FILE.test(file));
}
