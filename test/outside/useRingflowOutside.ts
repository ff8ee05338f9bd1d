/**
 * A new user's first hour, as a test (`npm run test:outside`, run by .ci/run; ~2 min, most of it
 * npm install, so not part of `npm test`). Issue 28's acceptance:
 *
 * 1. a fresh copy of this repository in a new folder under the system's temporary folder (the
 *    files git knows, as a clone has them), where the README's first command runs as written:
 *    `npm ci && npm start`;
 * 2. the commands of the README's "Use ringflow in your project", read from the README itself
 *    (its first `sh` block, run line by line as written, comments dropped), so the README and
 *    this run cannot drift: `npm run pack`, `npx ringflow init ../my-ivr --packages packed`,
 *    `cd ../my-ivr && npm install`, `npm run demo`, `npm test`;
 * 3. in the new project: its flow and scenarios (`validate`, `test`, `run --demo`), vitest, and
 *    `tsc --noEmit` with the generated tsconfig (node16) and with moduleResolution bundler,
 *    skipLibCheck off, so the shipped declarations are checked;
 * 4. a flow with a misspelt variable (see MISSPELT_VARIABLE below);
 * 5. the published path: `npm publish --dry-run` passes for every package.
 *
 * No warning may be printed on the way: any output line with `warn`/`warning` (npm's
 * `npm warn EBADENGINE`, `npm warn install-scripts`, Node's `(node:…) Warning`, a flow warning)
 * fails the run, except where a step expects one.
 *
 * Prints a transcript of every command (exit code, time, last lines of output); exits 1 at the
 * first failure. `--keep` leaves the temporary folder for inspection; `--committed` copies the last
 * commit instead of the work tree.
 */
import { type SpawnSyncReturns, execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const keep = process.argv.includes('--keep');
/** Copy the last commit rather than the work tree (which may hold others' work in progress). */
const committed = process.argv.includes('--committed');

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

/** A line that warns: npm's `npm warn ...`, Node's `(node:123) Warning: ...`, a validator's warning. */
const WARNING = /\bwarn(ing)?s?\b/i;
/** Lines that name warnings without being one: a count of none, the word in a scenario's name. */
const NOT_A_WARNING = /\b0 warnings\b/;

const started = performance.now();
const workDir = mkdtempSync(join(tmpdir(), 'ringflow-outside-'));

interface Expect {
  /** The exit code expected (default 0). */
  readonly exit?: number | readonly number[];
  /** Checks on the output (stdout and stderr together). */
  readonly check?: (output: string) => void;
  /** Warnings this step prints on purpose (matched per line); any other warning fails. */
  readonly warnings?: RegExp;
}

/**
 * Runs a command line through the shell and prints it with its outcome and its last lines.
 * Throws when its exit code is not the one expected, when it prints a warning, or when `check`
 * throws on its output.
 */
function sh(command: string, cwd: string, expected: Expect = {}): string {
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
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  for (const line of lines.slice(-8))
    console.log(`  ${line.length > 160 ? `${line.slice(0, 157)}...` : line}`);
  const exits = [expected.exit ?? 0].flat();
  if (!exits.includes(result.status ?? -1))
    throw new Error(`'${command}' exited ${result.status}, expected ${exits.join(' or ')}`);
  const warnings = lines.filter(
    (line) => WARNING.test(line) && !NOT_A_WARNING.test(line) && !expected.warnings?.test(line),
  );
  if (warnings.length > 0)
    throw new Error(`'${command}' printed ${warnings.length} warning line(s):\n  ${warnings.join('\n  ')}`);
  expected.check?.(output);
  return output;
}

function expectIn(output: string, expected: RegExp | string, what: string): void {
  const found = typeof expected === 'string' ? output.includes(expected) : expected.test(output);
  if (!found) throw new Error(`${what}: expected ${expected} in the output`);
}

/** The lines of every ```sh block of a Markdown text, in order. */
function shellBlocks(markdown: string): string[][] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.split('\n').filter(Boolean));
}

/** A README line as a command: its trailing `# comment` dropped. */
function commandOf(line: string): string {
  return line.replace(/\s+#.*$/, '').trim();
}

/** Checks of what the README's commands print, by command; every command must have one. */
const README_CHECKS: Record<string, Expect> = {
  'npm ci && npm start': {
    check: (out) => expectIn(out, /summary|calls/i, 'npm start: the demo ends with a summary'),
  },
  'npm run pack': { check: (out) => expectIn(out, /packed 7 packages into packed\//, 'npm run pack') },
  'npx ringflow init ../my-ivr --packages packed': {
    check: (out) => expectIn(out, 'from the tarballs in packed', 'init --packages'),
  },
  'cd ../my-ivr && npm install': {},
  'npm run demo': {
    check: (out) => expectIn(out, /3 calls|calls: 3|"calls":3/, 'demo summary'),
  },
  'npm test': {
    check: (out) => {
      expectIn(out, '3 passed, 0 failed', 'scenario tests');
      expectIn(out, /Tests\s+1 passed/, 'vitest');
    },
  },
};

/**
 * Issue 28, point 2: reading a variable that nothing declares or assigns is an error (RF303):
 * `ringflow validate` exits 1 and names the fix.
 */
const MISSPELT_FLOW = `name: tries
start: ask
vars: { tries: 0 }
prompts:
  en: { again: sound:demo-instruct, bye: sound:vm-goodbye }
states:
  ask:
    steps:
      - answer
      - set:
          tries: { expr: "vars.tries + 1" }
      - play: { prompt: again }
    choose:
      - when: vars.tires < 3
        goto: ask
      - goto: bye
  bye:
    steps: [{ play: { prompt: bye } }, hangup]
`;

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

let failed = false;
try {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const heading = '## Use ringflow in your project';
  if (!readme.includes(heading)) throw new Error(`README: no "${heading}"`);
  const section = readme.slice(readme.indexOf(heading)).split(/\n## /)[0]!;
  const first = shellBlocks(readme)[0]?.map(commandOf) ?? [];
  const setUp = first.find((command) => command.startsWith('npm ci'));
  if (!setUp) throw new Error("README: the first sh block has no 'npm ci ...'");
  const steps = shellBlocks(section)[0]?.map(commandOf) ?? [];
  if (steps.length === 0) throw new Error(`README "${heading}": no sh block`);
  for (const command of [setUp, ...steps])
    if (!README_CHECKS[command])
      throw new Error(`README command '${command}' is new to this run: add its check to README_CHECKS`);

  // A fresh copy of the repository: the files git knows (committed or not, as in a clone of
  // this work tree; with --committed, the last commit), nothing built, nothing installed.
  const clone = join(workDir, 'ringflow');
  mkdirSync(clone);
  console.log(`ringflow as a new user, in ${workDir}`);
  if (committed) {
    execFileSync('sh', ['-c', `git archive HEAD | tar -x -C '${clone}'`], { cwd: root });
    console.log('(copied the last commit)');
  } else {
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((file) => file !== '' && existsSync(join(root, file)));
    for (const file of files) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      copyFileSync(join(root, file), join(clone, file));
    }
    console.log(`(copied the ${files.length} files of the work tree)`);
  }

  sh(setUp, clone, README_CHECKS[setUp]);
  let cwd = clone;
  for (const step of steps) {
    const cd = /^cd (\S+) && (.+)$/.exec(step);
    if (cd) cwd = resolve(cwd, cd[1]!);
    sh(cd ? cd[2]! : step, cwd, README_CHECKS[step]);
  }
  const project = cwd;
  if (project !== join(workDir, 'my-ivr')) throw new Error(`the README's commands ended in ${project}`);

  // The flow's `$schema` line names a file the installed packages hold.
  const flowFile = join(project, 'flows/main-menu.yaml');
  const schema = /\$schema=(\S+)/.exec(readFileSync(flowFile, 'utf8').split('\n')[0]!)?.[1];
  if (!schema || !existsSync(join(dirname(flowFile), schema)))
    throw new Error(`the flow's $schema (${schema}) is not in node_modules`);
  console.log(`\n(the flow's $schema, ${schema}, is installed)`);
  sh('npx ringflow --version', project, { check: (out) => expectIn(out, /^\d+\.\d+\.\d+/m, 'version') });
  sh('npx ringflow init ../my-ivr --packages packed', clone, {
    exit: 1,
    check: (out) => expectIn(out, 'not overwriting', 'init again'),
  });
  // The flow and its scenario file.
  sh('npx ringflow validate flows/', project, {
    check: (out) => expectIn(out, '2 files checked: 0 errors, 0 warnings', 'validate'),
  });
  sh('npx ringflow test flows/', project, { check: (out) => expectIn(out, '3 passed, 0 failed', 'test') });
  sh('npx ringflow run flows/main-menu.yaml --demo --speed max --format json', project, {
    check: (out) => expectIn(out, '"event":"summary","calls":3', 'run --demo'),
  });
  sh('npx ringflow run flows/main-menu.yaml --demo --speed max --format text', project, {
    check: (out) => {
      expectIn(out, /3 calls/, 'run --demo, as text');
      // The caller who hangs up during the menu: the flow's hang-up finds them gone (point 10).
      expectIn(out, '(the caller had hung up already)', 'run --demo, a caller who left');
    },
  });
  sh('npx vitest run', project, { check: (out) => expectIn(out, /Tests\s+1 passed/, 'vitest') });
  sh('npx tsc --noEmit', project);
  writeFileSync(join(project, 'tsconfig.bundler.json'), `${JSON.stringify(BUNDLER_TSCONFIG, null, 2)}\n`);
  sh('npx tsc --noEmit -p tsconfig.bundler.json', project);

  // A misspelt variable: validate names it and the fix (issue 28, point 2; see above).
  mkdirSync(join(project, 'drafts'));
  writeFileSync(join(project, 'drafts/tries.yaml'), MISSPELT_FLOW);
  sh('npx ringflow validate drafts/tries.yaml', project, {
    exit: 1,
    check: (out) => expectIn(out, /"vars\.tires".*Did you mean "tries"\?/, 'the misspelt variable'),
  });

  // The published path: every package would publish (npm's own checks of package.json, files).
  // Logged out, npm says so once per package: the only warning allowed here.
  sh('npm publish --dry-run --workspaces --ignore-scripts', clone, {
    warnings: /requires you to be logged in to .* \(dry-run\)/,
    check: (out) => {
      for (const name of ['cli', 'client', 'cluster', 'dsl', 'runtime', 'simulator', 'testing'])
        expectIn(out, `+ @ringflow/${name}@`, `npm publish --dry-run of @ringflow/${name}`);
    },
  });
} catch (error) {
  failed = true;
  console.error(`\nFAILED: ${(error as Error).message}`);
}

console.log(
  `\n${failed ? 'FAILED' : 'ok'}: ringflow as a new user, ${((performance.now() - started) / 1000).toFixed(0)} s` +
    (keep ? ` (kept ${workDir})` : ''),
);
if (!keep) rmSync(workDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
