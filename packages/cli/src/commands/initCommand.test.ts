import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFlow } from '@ringflow/dsl';
import { runScenarioFiles } from '@ringflow/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cliVersion } from '../cliVersion.ts';
import { ExitCode } from '../ExitCode.ts';
import { TOOL_VERSIONS } from '../init/projectFiles.ts';
import { main } from '../main.ts';
import { captureIo } from '../test-support/captureIo.ts';

const temporaryFolders: string[] = [];
afterAll(async () => {
  await Promise.all(temporaryFolders.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function newFolder(name: string): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'ringflow-init-'));
  temporaryFolders.push(parent);
  return join(parent, name);
}

describe('ringflow init', () => {
  it('writes a project whose flow is valid and whose scenarios pass, and says what to run next', async () => {
    const dir = await newFolder('my-ivr');
    const c = captureIo();
    expect(await main(['init', dir], c.io)).toBe(ExitCode.OK);
    expect(c.out()).toContain('flows/main-menu.yaml');
    expect(c.out()).toMatch(/Next:\n {2}cd .*my-ivr\n {2}npm install\n {2}npm run demo/);

    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('my-ivr');
    expect(pkg.dependencies['@ringflow/runtime']).toBe(`^${cliVersion()}`);
    expect(pkg.devDependencies['@ringflow/cli']).toBe(`^${cliVersion()}`);

    const flowText = await readFile(join(dir, 'flows/main-menu.yaml'), 'utf8');
    expect(flowText.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../node_modules/@ringflow/dsl/schema/flow.schema.json',
    );
    expect(parseFlow(flowText, 'main-menu.yaml').diagnostics).toEqual([]);
    const run = await runScenarioFiles([join(dir, 'flows/main-menu.test.yaml')]);
    expect({ passed: run.passed, failed: run.failed }).toEqual({ passed: 3, failed: 0 });

    expect(await readFile(join(dir, 'src/main.ts'), 'utf8')).toContain('createApplication(');
    expect(await readFile(join(dir, 'test/main-menu.test.ts'), 'utf8')).toContain('testFlow(');
  });

  it('refuses to overwrite: with one file there already, it writes nothing and exits 1', async () => {
    const dir = await newFolder('taken');
    await main(['init', dir], captureIo().io);
    await writeFile(join(dir, 'README.md'), 'mine\n');
    const again = captureIo();
    expect(await main(['init', dir], again.io)).toBe(ExitCode.FAILURE);
    expect(again.err()).toContain('not overwriting');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('mine\n');

    const only = await newFolder('only-readme');
    await mkdir(only);
    await writeFile(join(only, 'README.md'), 'mine\n');
    expect(await main(['init', only], captureIo().io)).toBe(ExitCode.FAILURE);
    expect(await readdir(only)).toEqual(['README.md']);
  });

  it('rejects a folder name npm would not take as a package name', async () => {
    const c = captureIo();
    expect(await main(['init', await newFolder('My IVR')], c.io)).toBe(ExitCode.USAGE);
    expect(c.err()).toContain('cannot be an npm package name');
  });

  it('--packages: depends on the tarballs of npm run pack, and overrides make the packages use them too', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'ringflow-init-'));
    temporaryFolders.push(parent);
    const packed = join(parent, 'ringflow', 'packed');
    await mkdir(packed, { recursive: true });
    for (const name of ['cli', 'client', 'cluster', 'dsl', 'runtime', 'simulator', 'testing'])
      await writeFile(join(packed, `ringflow-${name}-0.1.0.tgz`), '');
    const c = captureIo();
    expect(await main(['init', join(parent, 'my-ivr'), '--packages', packed], c.io)).toBe(ExitCode.OK);
    expect(c.out()).toContain(`from the tarballs in ${packed}`);
    expect(c.out()).not.toContain('runs from a clone');
    const pkg = JSON.parse(await readFile(join(parent, 'my-ivr/package.json'), 'utf8'));
    expect(pkg.dependencies['@ringflow/runtime']).toBe('file:../ringflow/packed/ringflow-runtime-0.1.0.tgz');
    expect(pkg.devDependencies['@ringflow/cli']).toBe('file:../ringflow/packed/ringflow-cli-0.1.0.tgz');
    expect(pkg.overrides).toEqual({
      '@ringflow/cli': '$@ringflow/cli',
      '@ringflow/client': '$@ringflow/client',
      '@ringflow/cluster': 'file:../ringflow/packed/ringflow-cluster-0.1.0.tgz',
      '@ringflow/dsl': '$@ringflow/dsl',
      '@ringflow/runtime': '$@ringflow/runtime',
      '@ringflow/simulator': 'file:../ringflow/packed/ringflow-simulator-0.1.0.tgz',
      '@ringflow/testing': '$@ringflow/testing',
    });
  });

  it('--packages: a folder without every package says which are missing and how to make them', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'ringflow-init-'));
    temporaryFolders.push(parent);
    await writeFile(join(parent, 'ringflow-cli-0.1.0.tgz'), '');
    const c = captureIo();
    expect(await main(['init', join(parent, 'p'), '--packages', parent], c.io)).toBe(ExitCode.FAILURE);
    expect(c.err()).toMatch(/no tarball of @ringflow\/client, .*npm run pack/);
    const none = captureIo();
    expect(await main(['init', join(parent, 'q'), '--packages', join(parent, 'nope')], none.io)).toBe(
      ExitCode.FAILURE,
    );
    expect(none.err()).toContain('no such folder');
  });

  it('without --packages, depends on the registry, on the supported Node versions, esbuild allowed', async () => {
    const dir = await newFolder('published');
    const c = captureIo();
    await main(['init', dir], c.io);
    // Run from this repository: it says how to install from the clone instead.
    expect(c.out()).toMatch(/This ringflow runs from a clone .*\n.*npm run pack .*--packages .*packed/);
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(pkg.overrides).toBeUndefined();
    expect(pkg.engines.node).toBe('^20.19.0 || >=22.13.0');
    expect(pkg.allowScripts).toEqual({ esbuild: true });
  });

  it('pins the tools at the versions this repository is tested with', async () => {
    const root = JSON.parse(await readFile(new URL('../../../../package.json', import.meta.url), 'utf8'));
    for (const [tool, version] of Object.entries(TOOL_VERSIONS))
      expect(root.devDependencies[tool]).toBe(version);
  });
});
