#!/usr/bin/env node
// Builds each workspace package's JavaScript (`packages/<name>/dist/`) from its TypeScript
// sources with esbuild: one ES module per entry point of the package's `exports`, with source
// maps. Packages resolve to `dist/` by default and to `src/` under the `source` condition
// (typecheck and tests). Why ship JavaScript: running the sources through tsx wraps every
// function in `__name(...)`, which redefines its `name` and turns its properties into a
// dictionary: ~250 bytes more per closure and a slower call path, on every call a runtime
// handles. Run by `npm ci` (prepare), `npm start`, `npm run bench` and the test setup; ~1 s.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const packagesDir = join(root, 'packages');

/** Files a package reads next to its code at run time, copied beside the bundle. */
const ASSETS = {
  simulator: [['src/dialplan/extensions.conf', 'dist/extensions.conf']],
};

const started = performance.now();
for (const name of readdirSync(packagesDir)) {
  const dir = join(packagesDir, name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entryPoints = {};
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const source = typeof target === 'object' ? target.source : undefined;
    const output = typeof target === 'object' ? target.default : undefined;
    if (!source || !output) throw new Error(`${name}: export "${subpath}" needs { source, default } paths`);
    entryPoints[output.replace(/^\.\/dist\//, '').replace(/\.js$/, '')] = join(dir, source);
  }
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  await build({
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
  });
  for (const [from, to] of ASSETS[name] ?? []) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    copyFileSync(join(dir, from), join(dir, to));
  }
}
console.log(
  `built ${readdirSync(packagesDir).length} packages in ${Math.round(performance.now() - started)} ms`,
);
