/**
 * ringflow used the way a new user uses it, outside this repository (`npm run test:outside`, run
 * by .ci/run; ~1-2 min, most of it npm install, so not part of `npm test`):
 *
 * 1. builds every package (JavaScript and declarations) and packs it (`npm pack`);
 * 2. in a new folder under the system's temporary folder, runs the commands of the root README's
 *    "Use ringflow in your project" (checked to be there, word for word), with the tarballs in
 *    place of the registry for the @ringflow packages (third-party packages come from the
 *    registry): install the cli, `npx ringflow init my-ivr`, `npm install`, `npm run demo`,
 *    `npm test` (validate, scenario tests, the generated vitest test);
 * 3. there too: `npx ringflow validate`, `npx ringflow test`, `npx ringflow run --demo`, and
 *    `tsc --noEmit` on the generated TypeScript (entry and test, public API only) with the
 *    generated tsconfig (moduleResolution node16) and with moduleResolution bundler, skipLibCheck
 *    off, so the shipped declarations themselves are checked.
 *
 * Prints a transcript of every command (exit code, time, last lines of output); exits 1 at the
 * first failure. `--keep` leaves the temporary folder for inspection.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const keep = process.argv.includes('--keep');

/** The commands of the README section, in order; each must appear there exactly like this. */
const README_COMMANDS = {
  installCli: 'npm install -D @ringflow/cli',
  init: 'npx ringflow init my-ivr',
  install: 'cd my-ivr && npm install',
  demo: 'npm run demo',
  test: 'npm test',
} as const;

// Child npm processes must not inherit the settings of the `npm run` that started this script.
// Output without colours, so it can be matched.
const env = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_/i.test(key) && !['INIT_CWD', 'FORCE_COLOR'].includes(key),
    ),
  ),
  NO_COLOR: '1',
};

const started = performance.now();

/**
 * Runs a command line through the shell and prints it with its outcome and its last lines.
 * Throws when its exit code is not `exit` (0 unless told), or when `check` throws on its output.
 */
function sh(command: string, cwd: string, check?: (output: string) => void, exit = 0): string {
  const t = performance.now();
  const result: SpawnSyncReturns<string> = spawnSync(command, {
    cwd,
    env,
    shell: true,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout}${result.stderr}`;
  const seconds = ((performance.now() - t) / 1000).toFixed(1);
  const where = cwd.startsWith(workDir) ? cwd.slice(workDir.length) || '/' : cwd;
  console.log(`\n$ ${command}    [in ${where}; exit ${result.status}; ${seconds} s]`);
  const lines = output
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^npm warn Unknown user config/.test(line));
  for (const line of lines.slice(-8))
    console.log(`  ${line.length > 160 ? `${line.slice(0, 157)}...` : line}`);
  if (result.status !== exit) throw new Error(`'${command}' exited ${result.status}, expected ${exit}`);
  check?.(output);
  return output;
}

function expectIn(output: string, expected: RegExp | string, what: string): void {
  const found = typeof expected === 'string' ? output.includes(expected) : expected.test(output);
  if (!found) throw new Error(`${what}: expected ${expected} in the output`);
}

/** A tsconfig as a TypeScript user writes it for a bundler, declarations of packages checked too. */
const BUNDLER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
  include: ['src', 'test'],
};

const workDir = mkdtempSync(join(tmpdir(), 'ringflow-outside-'));
let failed = false;
try {
  // The README section this run keeps true.
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const heading = '## Use ringflow in your project';
  if (!readme.includes(heading)) throw new Error(`README: no "${heading}"`);
  const section = readme.slice(readme.indexOf(heading)).split(/\n## /)[0]!;
  for (const command of Object.values(README_COMMANDS))
    if (!section.includes(command)) throw new Error(`README "${heading}" lacks \`${command}\``);

  console.log(`ringflow outside the repository, in ${workDir}`);
  const tarballs = join(workDir, 'tarballs');
  mkdirSync(tarballs);
  sh('node scripts/build-packages.mjs --declarations', root);
  // Built just above: --ignore-scripts skips each package's prepack, which would build it again.
  sh(`npm pack --workspaces --ignore-scripts --silent --pack-destination ${tarballs}`, root);
  /** Every @ringflow package as `file:` its tarball: the registry's place in this run. */
  const local: Record<string, string> = {};
  for (const file of readdirSync(tarballs)) {
    const name = /^ringflow-(.+)-\d+\.\d+\.\d+.*\.tgz$/.exec(file)?.[1];
    if (name) local[`@ringflow/${name}`] = `file:${join(tarballs, file)}`;
  }
  if (Object.keys(local).length !== readdirSync(join(root, 'packages')).length)
    throw new Error(`expected one tarball per package, got ${readdirSync(tarballs).join(', ')}`);

  // A user's folder: install the command, write a project.
  const userDir = join(workDir, 'user');
  mkdirSync(userDir);
  const { '@ringflow/cli': cliTarball, ...libraries } = local;
  writeFileSync(
    join(userDir, 'package.json'),
    `${JSON.stringify({ name: 'user', private: true, type: 'module', overrides: libraries }, null, 2)}\n`,
  );
  sh(
    `${README_COMMANDS.installCli.replace('@ringflow/cli', local['@ringflow/cli']!)} --no-audit --no-fund`,
    userDir,
  );
  if (!existsSync(join(userDir, 'node_modules/.bin/ringflow')))
    throw new Error('no node_modules/.bin/ringflow');
  sh('npx ringflow --version', userDir, (out) => expectIn(out, /^\d+\.\d+\.\d+/m, 'version'));
  sh(README_COMMANDS.init, userDir, (out) => expectIn(out, 'Next:', 'init'));
  sh(README_COMMANDS.init, userDir, (out) => expectIn(out, 'not overwriting', 'init again'), 1);

  // The project: its @ringflow dependencies point at the tarballs, and so do the packages'
  // dependencies on each other (overrides; `$name` for a direct dependency, as npm requires).
  const project = join(userDir, 'my-ivr');
  const pkgPath = join(project, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  pkg.overrides = { ...local };
  for (const deps of [pkg.dependencies, pkg.devDependencies])
    for (const name of Object.keys(deps))
      if (local[name]) {
        deps[name] = local[name];
        pkg.overrides[name] = `$${name}`;
      }
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);

  sh(`${README_COMMANDS.install.replace('cd my-ivr && ', '')} --no-audit --no-fund`, project);
  // The flow's `$schema` line names a file the installed packages hold.
  const flowFile = join(project, 'flows/main-menu.yaml');
  const schema = /\$schema=(\S+)/.exec(readFileSync(flowFile, 'utf8').split('\n')[0]!)?.[1];
  if (!schema || !existsSync(join(dirname(flowFile), schema)))
    throw new Error(`the flow's $schema (${schema}) is not in node_modules`);
  console.log(`\n(the flow's $schema, ${schema}, is installed)`);
  sh(README_COMMANDS.demo, project, (out) => expectIn(out, '"event":"summary","calls":3', 'demo summary'));
  sh(README_COMMANDS.test, project, (out) => {
    expectIn(out, '3 passed, 0 failed', 'scenario tests');
    expectIn(out, /Tests\s+1 passed/, 'vitest');
  });
  // The flow and its scenario file.
  sh('npx ringflow validate flows/', project, (out) =>
    expectIn(out, '2 files checked: 0 errors, 0 warnings', 'validate'),
  );
  sh('npx ringflow test flows/', project, (out) => expectIn(out, '3 passed, 0 failed', 'test'));
  sh('npx ringflow run flows/main-menu.yaml --demo --speed max --format json', project, (out) =>
    expectIn(out, '"event":"summary","calls":3', 'run --demo'),
  );
  sh('npx vitest run', project, (out) => expectIn(out, /Tests\s+1 passed/, 'vitest'));
  sh('npx tsc --noEmit', project);
  writeFileSync(join(project, 'tsconfig.bundler.json'), `${JSON.stringify(BUNDLER_TSCONFIG, null, 2)}\n`);
  sh('npx tsc --noEmit -p tsconfig.bundler.json', project);
} catch (error) {
  failed = true;
  console.error(`\nFAILED: ${(error as Error).message}`);
}

console.log(
  `\n${failed ? 'FAILED' : 'ok'}: ringflow outside the repository, ${((performance.now() - started) / 1000).toFixed(0)} s` +
    (keep ? ` (kept ${workDir})` : ''),
);
if (!keep) rmSync(workDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
