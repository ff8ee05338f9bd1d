import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * What a plain node process loads of rxjs once it has imported the built packages an application
 * runs (client, runtime, dsl): the number of rxjs files, and whether its entry point (which
 * requires all ~400 of them) is among them.
 */
async function rxjsLoadedByPackages(): Promise<{ entryPoint: boolean; files: number }> {
  const script = `
    await import('@ringflow/client');
    await import('@ringflow/runtime');
    await import('@ringflow/dsl');
    const { createRequire } = await import('node:module');
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/rxjs/'));
    console.log(JSON.stringify({ entryPoint: loaded.some((f) => f.endsWith('/rxjs/dist/cjs/index.js')), files: loaded.length }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
  });
  return JSON.parse(stdout) as { entryPoint: boolean; files: number };
}

describe('rxjs in an application process', () => {
  it('loads only the pieces the packages use, not the rxjs entry point (6 MiB of resident memory)', async () => {
    const loaded = await rxjsLoadedByPackages();
    expect(loaded.entryPoint).toBe(false);
    // Subject, BehaviorSubject, Observable, filter, tap, firstValueFrom and what they need.
    expect(loaded.files).toBeLessThan(60);
  });

  it('hands out the same classes as the rxjs entry point', async () => {
    const [rx, mine] = await Promise.all([import('rxjs'), import('./rx.ts')]);
    expect(mine.Subject).toBe(rx.Subject);
    expect(mine.BehaviorSubject).toBe(rx.BehaviorSubject);
    expect(mine.Observable).toBe(rx.Observable);
    expect(mine.filter).toBe(rx.filter);
    expect(new mine.Subject()).toBeInstanceOf(rx.Observable);
  });
});
