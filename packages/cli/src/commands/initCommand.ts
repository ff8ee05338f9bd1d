import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cliVersion } from '../cliVersion.ts';
import { type Command, parseCommandLine, UsageError } from '../Command.ts';
import { ExitCode } from '../ExitCode.ts';
import { FLOW_FILE, projectFiles } from '../init/projectFiles.ts';

const HELP = `Usage: ringflow init <folder> [options]

Writes a new project in <folder> (created if needed; its name is the project's name):

  package.json              depends on @ringflow/runtime, @ringflow/dsl, @ringflow/client; scripts
                            demo, start, test, typecheck
  ${FLOW_FILE.padEnd(26)}a main menu flow, with the $schema line editors use
  ${FLOW_FILE.replace(/\.yaml$/, '.test.yaml').padEnd(26)}its scenarios (npx ringflow test)
  src/main.ts               the flow on an ARI server, with createApplication
  test/main-menu.test.ts    a vitest test of the flow with testFlow
  tsconfig.json, README.md, .gitignore

It never overwrites a file: when one of them exists, it writes nothing and exits 1.

Options:
  --packages <folder>  install the ringflow packages from the tarballs in <folder> (written by
                       'npm run pack' in a clone of ringflow) instead of the npm registry: the
                       project's dependencies name the tarballs, and its overrides make the
                       packages' dependencies on each other use them too
  -h, --help           show this help

Exit codes:
  0  the project was written
  1  a file exists already, or a file could not be written
  2  wrong command line

Examples:
  npx ringflow init my-ivr && cd my-ivr && npm install && npm run demo
  npx ringflow init ../my-ivr --packages packed     (in a clone of ringflow, after npm run pack)
`;

/** What npm accepts as the name of an unscoped package. */
const PACKAGE_NAME = /^[a-z0-9][a-z0-9._~-]*$/;

/**
 * `ringflow init`: writes a new project (a flow, its scenarios, a TypeScript entry and test).
 *
 * @example
 * await initCommand.run(['my-ivr'], io); // ExitCode.OK, my-ivr/package.json ... written
 */
export const initCommand: Command = {
  name: 'init',
  summary: 'write a new project: a flow, its scenarios, a TypeScript entry and a test',
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(() =>
      parseArgs({
        args: [...args],
        strict: true,
        allowPositionals: true,
        options: { packages: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      }),
    );
    if (values.help) {
      io.stdout(HELP);
      return ExitCode.OK;
    }
    const [folder, ...extra] = positionals;
    if (folder === undefined)
      throw new UsageError('give the folder of the new project, e.g. ringflow init my-ivr');
    if (extra.length > 0) throw new UsageError(`one project at a time; unexpected '${extra[0]}'`);
    const name = basename(resolve(folder));
    if (!PACKAGE_NAME.test(name) || name.length > 214)
      throw new UsageError(
        `'${name}' cannot be an npm package name: use lowercase letters, digits and - . _ ~ (e.g. my-ivr)`,
      );
    let packed: Record<string, string> | undefined;
    if (values.packages !== undefined) {
      const found = await packedPackages(values.packages, folder);
      if (typeof found === 'string') {
        io.stderr(`ringflow init: --packages ${values.packages}: ${found}\n`);
        return ExitCode.FAILURE;
      }
      packed = found;
    }
    const files = projectFiles(name, cliVersion(), packed);
    const existing = files.filter((f) => existsSync(join(folder, f.path)));
    if (existing.length > 0) {
      io.stderr(
        `ringflow init: not overwriting ${existing.map((f) => join(folder, f.path)).join(', ')}; nothing was written. Choose another folder or move these files away.\n`,
      );
      return ExitCode.FAILURE;
    }
    for (const file of files) {
      const path = join(folder, file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.text, { flag: 'wx' }); // wx: fail rather than overwrite, even in a race
    }
    const shown = relative('.', folder) || '.';
    const clone = packed ? undefined : sourceCheckout();
    io.stdout(
      `Wrote a ringflow project in ${shown}/:\n${files.map((f) => `  ${f.path}\n`).join('')}` +
        (packed ? `It installs the ringflow packages from the tarballs in ${values.packages}.\n` : '') +
        '\n' +
        `Next:\n  cd ${shown}\n  npm install\n  npm run demo    # the flow answers simulated callers\n  npm test        # validate, scenarios, vitest\n` +
        (clone
          ? `\nThis ringflow runs from a clone (${relative('.', clone) || '.'}): the project installs the packages from the npm registry.\n` +
            `While they are not published there, install them from the clone instead: npm run pack (in the clone), then ringflow init <folder> --packages ${join(relative('.', clone) || '.', 'packed')}\n`
          : ''),
    );
    return ExitCode.OK;
  },
};

/**
 * The ringflow repository this command runs from (a clone: its root package.json is the
 * `ringflow` workspace), or undefined when it runs from an installed package.
 */
function sourceCheckout(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 6; up++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        workspaces?: unknown;
      };
      if (pkg.name === 'ringflow' && pkg.workspaces) return dir;
      if (pkg.name === '@ringflow/cli' && dir.split(sep).includes('node_modules')) return undefined;
    } catch {}
  }
  return undefined;
}

/** Every ringflow package, as a project installed from tarballs needs them (the cli needs them all). */
const PACKAGES = ['cli', 'client', 'cluster', 'dsl', 'runtime', 'simulator', 'testing'] as const;

/**
 * The tarballs `npm run pack` wrote in `dir`, as `file:` specs relative to the project folder
 * (so the project and the clone can move together), or what is wrong with the folder.
 */
async function packedPackages(dir: string, project: string): Promise<Record<string, string> | string> {
  let files: string[];
  try {
    files = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `cannot read the folder (${code === 'ENOENT' ? 'no such folder' : code}); run 'npm run pack' in a clone of ringflow, then give the folder it printed`;
  }
  const packed: Record<string, string> = {};
  for (const file of files) {
    const name = /^ringflow-([a-z]+)-\d+\.\d+\.\d+.*\.tgz$/.exec(file)?.[1];
    if (!name) continue;
    if (packed[`@ringflow/${name}`])
      return `two tarballs of @ringflow/${name}; keep one ('npm run pack' empties the folder first)`;
    const path = relative(resolve(project), resolve(dir, file)).split(sep).join('/');
    packed[`@ringflow/${name}`] = `file:${path}`;
  }
  const missing = PACKAGES.filter((name) => !packed[`@ringflow/${name}`]);
  if (missing.length > 0)
    return `no tarball of ${missing.map((n) => `@ringflow/${n}`).join(', ')} (ringflow-<name>-<version>.tgz); run 'npm run pack' in a clone of ringflow`;
  return packed;
}
