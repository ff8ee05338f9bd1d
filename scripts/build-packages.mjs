#!/usr/bin/env node
// Builds each workspace package's JavaScript (`packages/<name>/dist/`) from its TypeScript
// sources with esbuild: one ES module per entry point of the package's `exports`, with source
// maps. Packages resolve to `dist/` by default and to `src/` under the `source` condition
// (typecheck and tests). Why ship JavaScript: running the sources through tsx wraps every
// function in `__name(...)`, which redefines its `name` and turns its properties into a
// dictionary: ~250 bytes more per closure and a slower call path, on every call a runtime
// handles. Run by `npm ci` (prepare), `npm start`, `npm run bench` and the test setup; ~1 s.
//
//   node scripts/build-packages.mjs                 JavaScript of every package
//   node scripts/build-packages.mjs --declarations  and their .d.ts (scripts/build-declarations.mjs)
//
// Run as a package's `prepack` script (npm pack, npm publish), it builds that package alone, with
// its declarations: a tarball always holds both.
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildConsolePage } from './build-console-page.mjs';
import { buildDeclarations, declarationPath, readPackageJson } from './build-declarations.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const packagesDir = join(root, 'packages');
const packing = process.env.npm_lifecycle_event === 'prepack';
const withDeclarations = packing || process.argv.includes('--declarations');

/** Files a package reads next to its code at run time, copied beside the bundle. */
const ASSETS = {
  simulator: [['src/dialplan/extensions.conf', 'dist/extensions.conf']],
};

const started = performance.now();
const packages = readdirSync(packagesDir)
  .map((name) => ({ name, dir: join(packagesDir, name), pkg: readPackageJson(join(packagesDir, name)) }))
  .filter(({ pkg }) => !packing || pkg.name === process.env.npm_package_name);
for (const { name, dir, pkg } of packages) {
  const entryPoints = {};
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const { source, types, default: output } = typeof target === 'object' ? target : {};
    if (!source || !output)
      throw new Error(`${name}: export "${subpath}" needs { source, types, default } paths`);
    if (types !== declarationPath(source))
      throw new Error(`${name}: export "${subpath}" needs "types": "${declarationPath(source)}"`);
    entryPoints[output.replace(/^\.\/dist\//, '').replace(/\.js$/, '')] = join(dir, source);
  }
  const result = await build({
    entryPoints,
    outdir: join(dir, 'dist'),
    bundle: true,
    packages: 'external', // dependencies (and the other ringflow packages) stay imports
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    splitting: true, // entry points of one package share their modules (one copy of each class)
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
    write: false,
  });
  replaceOutputs(join(dir, 'dist'), result.outputFiles);
  for (const [from, to] of ASSETS[name] ?? []) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    copyFileSync(join(dir, from), join(dir, to));
  }
  // The console's page (Preact, dagre) is bundled for the browser: dist/console/index.html.
  if (name === 'cli') await buildConsolePage(dir);
}
/**
 * Writes a build's files into `outDir` without a moment where `dist/` is missing or half
 * written: each file is written beside its place and renamed over it (atomic on one file
 * system), then the chunks no longer produced are removed. Another test run or `ringflow`
 * process reading `dist/` while a build runs (two vitest runs in one checkout) keeps working.
 */
function replaceOutputs(outDir, outputFiles) {
  const written = new Set();
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
    written.add(file.path);
  }
  for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && /\.(js|js\.map)$/.test(entry.name) && !written.has(path))
      rmSync(path, { force: true });
  }
}

const declarations = withDeclarations ? buildDeclarations(root, packages) : 0;
console.log(
  `built ${packages.length} package(s)${withDeclarations ? ` with ${declarations} declaration files` : ''} in ${Math.round(performance.now() - started)} ms`,
);
