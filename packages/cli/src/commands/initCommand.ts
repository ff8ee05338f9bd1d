import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
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
  -h, --help   show this help

Exit codes:
  0  the project was written
  1  a file exists already, or a file could not be written
  2  wrong command line

Example:
  npx ringflow init my-ivr && cd my-ivr && npm install && npm run demo
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
        options: { help: { type: 'boolean', short: 'h' } },
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
    const files = projectFiles(name, cliVersion());
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
    io.stdout(
      `Wrote a ringflow project in ${shown}/:\n${files.map((f) => `  ${f.path}\n`).join('')}\n` +
        `Next:\n  cd ${shown}\n  npm install\n  npm run demo    # the flow answers simulated callers\n  npm test        # validate, scenarios, vitest\n`,
    );
    return ExitCode.OK;
  },
};
