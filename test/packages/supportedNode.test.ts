import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { INSTALL_SCRIPTS_ALLOWED, PROJECT_NODE_ENGINES } from '../../packages/cli/src/init/projectFiles.ts';

/**
 * The Node versions ringflow supports, said once and installed without a warning (issue 28,
 * point 9): `npm ci` on a supported Node prints no `npm warn EBADENGINE` (a dependency that needs
 * a newer Node) and no `npm warn install-scripts` (a dependency whose install script the project
 * has not decided on). Both are read from the lock file, which is what `npm ci` installs.
 *
 * - The packages run on Node 20.19 or later (`>=20.19.0`, what their own dependencies need).
 * - The repository and a project `ringflow init` writes also run vitest's toolchain (vite,
 *   rolldown): Node 20.19 or later on 20, 22.13 or later on 22, any later line.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const rootPackage = JSON.parse(read('package.json'));
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<
    string,
    { engines?: { node?: string }; dev?: boolean; hasInstallScript?: boolean; link?: boolean }
  >;
};
const workspaces = readdirSync(`${root}packages`).map((dir) => ({
  dir,
  pkg: JSON.parse(read(`packages/${dir}/package.json`)),
  readme: read(`packages/${dir}/README.md`),
}));

/** The lowest version of each supported line: where a too-new dependency shows first. */
function lowestOfEachLine(range: string): string[] {
  const lowest: string[] = [];
  for (const major of [20, 22, 24, 26])
    search: for (let minor = 0; minor <= 40; minor++)
      for (const patch of [0, 1, 2, 3])
        if (semver.satisfies(`${major}.${minor}.${patch}`, range)) {
          lowest.push(`${major}.${minor}.${patch}`);
          break search;
        }
  return lowest;
}

/** Lock entries npm installs whose `engines.node` refuses `version`. */
function refusing(version: string, onlyRuntime: boolean): string[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !(onlyRuntime && entry.dev))
    .filter(([, entry]) => entry.engines?.node && !semver.satisfies(version, entry.engines.node))
    .map(([path, entry]) => `${path} needs node ${entry.engines!.node}`);
}

describe('supported Node versions', () => {
  const packagesRange = '>=20.19.0';
  const repositoryRange = '^20.19.0 || >=22.13.0';

  it('are said the same way by every engines field and every README', () => {
    expect(rootPackage.engines.node).toBe(repositoryRange);
    expect(PROJECT_NODE_ENGINES).toBe(repositoryRange);
    for (const { dir, pkg, readme } of workspaces) {
      expect(pkg.engines.node, dir).toBe(packagesRange);
      expect(readme, dir).toContain('Node 20.19 or later');
    }
    expect(read('README.md').replace(/\s+/g, ' ')).toContain(
      'Node 20.19 or later (on Node 22: 22.13 or later)',
    );
    expect(read('README.md')).not.toMatch(/Node 20\.18/);
  });

  it('fit every dependency the packages install (npm ci prints no EBADENGINE on them)', () => {
    const lowest = lowestOfEachLine(packagesRange);
    expect(lowest[0]).toBe('20.19.0');
    for (const version of lowest) expect(refusing(version, true), `node ${version}`).toEqual([]);
  });

  it('fit every dependency of the repository and of a new project, tools included', () => {
    const lowest = lowestOfEachLine(repositoryRange);
    expect(lowest.slice(0, 2)).toEqual(['20.19.0', '22.13.0']);
    for (const version of [...lowest, process.versions.node])
      expect(refusing(version, false), `node ${version}`).toEqual([]);
  });

  it('include the Node this machine and CI run', () => {
    expect(semver.satisfies(process.versions.node, repositoryRange)).toBe(true);
  });
});

describe('install scripts', () => {
  it('every dependency with an install script is decided on in allowScripts (no npm warn install-scripts)', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => entry.hasInstallScript && !entry.link && path.startsWith('node_modules/'))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(rootPackage.allowScripts, name).toHaveProperty([name]);
  });

  it('a new project allows the same (tsx brings esbuild there too)', () => {
    expect(INSTALL_SCRIPTS_ALLOWED).toEqual(rootPackage.allowScripts);
  });
});
