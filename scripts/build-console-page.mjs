// Builds the console page of `ringflow dev` and `ringflow run --http` (packages/cli/src/dev/page,
// Preact components and dagre's layout) into one HTML document, packages/cli/dist/console/index.html:
// its script and styles inline, minified, nothing fetched from elsewhere (the page works offline,
// and the live view is one request behind the operations server's auth). Called by
// build-packages.mjs for the cli; ~100 ms.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Builds the page of the cli package in `dir`; answers the HTML's size in bytes. */
export async function buildConsolePage(dir) {
  const source = join(dir, 'src/dev/page');
  const result = await build({
    entryPoints: [join(source, 'main.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // A `</script` inside the code would end the inline script early.
  const script = result.outputFiles[0].text.replaceAll('</script', '<\\/script');
  const styles = readFileSync(join(source, 'console.css'), 'utf8');
  const template = readFileSync(join(source, 'index.html'), 'utf8');
  const html = template.replace('/*console.css*/', () => styles).replace('/*main.js*/', () => script);
  mkdirSync(join(dir, 'dist/console'), { recursive: true });
  // Written beside its place and renamed over it: a console served while a build runs never
  // reads half a page.
  const target = join(dir, 'dist/console/index.html');
  writeFileSync(`${target}.${process.pid}.tmp`, html);
  renameSync(`${target}.${process.pid}.tmp`, target);
  return Buffer.byteLength(html);
}
