import { mkdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Where the bundles go (`bench/out/` is not tracked). */
const OUT_DIR = fileURLToPath(new URL('../out/apps/', import.meta.url));

/**
 * Bundles a bench TypeScript module (an application child) into one plain JavaScript module, its
 * packages left as imports (`@ringflow/*` resolve to the packages' `dist/`, as for an installed
 * ringflow). Node then runs it without tsx: tsx's loader hooks keep a worker thread and the
 * source of every module loaded through them, ~40 MB of resident memory at start, more for the
 * application that loads more modules, which made the bench's "resident memory at start"
 * compare loaders rather than applications (`ringflow run` is plain node).
 *
 * @example
 * const module = await bundleForNode(new URL('../apps/bareApp.ts', import.meta.url));
 * await ChildLink.start(module, 'bare', { javascript: true });
 */
export async function bundleForNode(module: URL): Promise<URL> {
  mkdirSync(OUT_DIR, { recursive: true });
  const outfile = `${OUT_DIR}${basename(module.pathname).replace(/\.ts$/, '')}.mjs`;
  await build({
    entryPoints: [fileURLToPath(module)],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    // Files the module reads beside itself (`new URL('../flows/...', import.meta.url)`) are found
    // where its source is: the bench's own modules use import.meta.url for nothing else.
    define: { 'import.meta.url': JSON.stringify(module.href) },
  });
  return pathToFileURL(outfile);
}
