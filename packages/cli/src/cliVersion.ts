import { readFileSync } from 'node:fs';

/**
 * The version of @ringflow/cli, from its package.json: the nearest one above this module, which
 * is `src/` when run from sources and `dist/` or `dist/chunks/` once built.
 *
 * @example
 * cliVersion(); // '0.1.0'
 */
export function cliVersion(): string {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    let text: string;
    try {
      text = readFileSync(new URL('package.json', dir), 'utf8');
    } catch {
      continue;
    }
    const pkg = JSON.parse(text) as { name?: string; version?: string };
    if (pkg.name === '@ringflow/cli' && pkg.version) return pkg.version;
  }
  throw new Error('ringflow: cannot find the package.json of @ringflow/cli above its code');
}
