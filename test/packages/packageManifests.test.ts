import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every package under packages/ can be published and used from outside (test/outside runs the
 * real thing; this says which field is missing, in a second, for a package added later).
 */
const packagesDir = fileURLToPath(new URL('../../packages/', import.meta.url));
const packages = readdirSync(packagesDir).map((dir) => ({
  dir,
  pkg: JSON.parse(readFileSync(`${packagesDir}${dir}/package.json`, 'utf8')),
  readme: readFileSync(`${packagesDir}${dir}/README.md`, 'utf8'),
}));
const versions = new Map(packages.map(({ pkg }) => [pkg.name as string, pkg.version as string]));

describe.each(packages)('packages/$dir', ({ pkg, readme }) => {
  it('is publishable: a version, not private, engines, license, repository, files, prepack', () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(pkg.type).toBe('module');
    expect(pkg.engines?.node).toBeDefined();
    expect(pkg.license).toBeDefined();
    expect(pkg.repository?.directory).toBeDefined();
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'src', '!src/**/*.test.ts']));
    expect(pkg.scripts?.prepack).toBe('node ../../scripts/build-packages.mjs');
  });

  it('exports every entry as { source, types, default }, source first (the repository resolves to src/)', () => {
    for (const target of Object.values(pkg.exports as Record<string, Record<string, string>>)) {
      expect(Object.keys(target)).toEqual(['source', 'types', 'default']);
      expect(target.types).toBe(target.source!.replace('./src/', './dist/').replace(/\.ts$/, '.d.ts'));
      expect(target.default).toBe(target.source!.replace('./src/', './dist/').replace(/\.ts$/, '.js'));
    }
  });

  it('depends on the other ringflow packages by their version', () => {
    for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }))
      if (versions.has(name)) expect(range, name).toBe(versions.get(name));
  });

  it('has a README that starts with how to install it', () => {
    expect(readme).toMatch(/^# .*\n\n```sh\nnpm install (-D )?@ringflow\//);
  });
});
