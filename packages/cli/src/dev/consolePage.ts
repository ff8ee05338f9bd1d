import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the build writes the page, from the cli package's folder (scripts/build-console-page.mjs). */
const BUILT_PAGE = join('dist', 'console', 'index.html');

let page: string | undefined;

/**
 * The console page: one HTML document with its script and styles inline (Preact components and
 * dagre's layout, from `./page/`, bundled at build time; no CDN, works offline). Its requests are
 * relative (`api/feed`), so it works wherever it is mounted. Served with `<body data-mode="live">`
 * it is the read-only live view (no softphone, no scenarios).
 *
 * It is read once from the cli package's `dist/console/` (this module runs from `src/dev/` in
 * tests and from `dist/` or `dist/chunks/` when built: the package folder is the nearest one above
 * that holds the page). Throws, saying how to build it, when it was never built.
 *
 * @example
 * res.end(consolePage());
 */
export function consolePage(): string {
  if (page !== undefined) return page;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const file = join(dir, BUILT_PAGE);
    if (existsSync(file)) {
      page = readFileSync(file, 'utf8');
      return page;
    }
  }
  throw new Error(
    'the console page is not built (no packages/cli/dist/console/index.html): run `npm run build` at the repository root',
  );
}
