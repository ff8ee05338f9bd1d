#!/usr/bin/env node
// Packs every workspace package into one folder, as the tarballs npm would publish
// (`ringflow-<name>-<version>.tgz`), for projects on a machine where the packages are not in the
// registry: `npx ringflow init <folder> --packages <that folder>` writes a project that installs
// from them. Builds the JavaScript and the declarations once (each package's prepack would build
// again), then `npm pack` of every workspace. Old ringflow tarballs in the folder are removed
// first, so it holds one version of each package.
//
//   npm run pack                   into packed/ (ignored by git)
//   npm run pack -- <folder>       into <folder>
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
if (args.length > 1 || args.some((a) => a.startsWith('-'))) {
  console.error('usage: npm run pack [-- <folder>]   (default: packed/)');
  process.exit(2);
}
// npm runs scripts at the package root; a folder given on the command line is the caller's.
const folder = resolve(process.env.INIT_CWD ?? process.cwd(), args[0] ?? join(root, 'packed'));

/** Runs a command at the repository's root, its output shown only when it fails. */
function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout}${result.stderr}`);
    console.error(`pack: '${command} ${commandArgs.join(' ')}' failed (exit ${result.status})`);
    process.exit(1);
  }
  return result.stdout;
}

mkdirSync(folder, { recursive: true });
for (const file of readdirSync(folder)) if (/^ringflow-.+\.tgz$/.test(file)) rmSync(join(folder, file));
run(process.execPath, [join(root, 'scripts/build-packages.mjs'), '--declarations']);
// Built just above: --ignore-scripts skips each package's prepack, which would build it again.
run('npm', ['pack', '--workspaces', '--ignore-scripts', '--silent', '--pack-destination', folder]);
const tarballs = readdirSync(folder).filter((file) => /^ringflow-.+\.tgz$/.test(file));
const shown = relative(process.env.INIT_CWD ?? process.cwd(), folder) || '.';
console.log(
  `packed ${tarballs.length} packages into ${shown}/:\n${tarballs.map((f) => `  ${f}\n`).join('')}` +
    `A project that installs from them: npx ringflow init <folder> --packages ${shown}`,
);
