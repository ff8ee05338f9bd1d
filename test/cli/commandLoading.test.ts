import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { RECORD_LOADED_MODULES } from './recordLoadedModules.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/cli/bin/ringflow.js');

/**
 * Runs the built `ringflow` command until it exits, or until its output matches `until` (then
 * SIGTERM), and returns the modules it loaded (file URLs and node: builtins).
 */
async function loadedBy(args: string[], until?: RegExp): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'ringflow-loading-'));
  const log = join(dir, 'modules.txt');
  const child = spawn(process.execPath, ['--import', RECORD_LOADED_MODULES, bin, ...args], {
    cwd: root,
    env: { ...process.env, RINGFLOW_LOADED_MODULES: log },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stopped = false;
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    if (stopped || !until?.test(output)) return;
    stopped = true;
    child.kill('SIGTERM');
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code, output).toBe(0);
  const modules = (await readFile(log, 'utf8')).trim().split('\n');
  await rm(dir, { recursive: true, force: true });
  return modules;
}

const loads = (modules: string[], pattern: RegExp) => modules.filter((url) => pattern.test(url));
const SIMULATOR = /\/(packages|@ringflow)\/simulator\//;
const RUNTIME = /\/(packages|@ringflow)\/runtime\//;
/** The runtime's engine entry, the agent step's session (`agent-session`), and the chunk of modules they share with the main entry. */
const RUNTIME_ENGINE =
  /\/runtime\/dist\/(engine\/index|session\/CallEnd|agent\/session|chunks\/chunk-[A-Z0-9]+)\.js$/;
/** The harness that runs scenarios (the testing package's main entry); its scenario-file reader is not it. */
const TEST_HARNESS = /\/(packages|@ringflow)\/testing\/dist\/index\.js$/;

describe('each ringflow subcommand loads only what it needs', () => {
  it('--help loads none of the packages and no dependency', async () => {
    const modules = await loadedBy(['--help']);
    expect(loads(modules, /\/node_modules\/|\/packages\/(?!cli\/)/)).toEqual([]);
  });

  it('validate loads the flow language and the scenario-file reader: no simulator, no runtime but its engine, no test harness, no HTTP or WebSocket client', async () => {
    const modules = await loadedBy(['validate', 'flows/']);
    expect(new Set(loads(modules, /\/testing\/dist\/scenarioFiles\.js$/)).size).toBe(1);
    expect(new Set(loads(modules, /\/dsl\/dist\/index\.js$/)).size).toBe(1);
    expect(loads(modules, SIMULATOR)).toEqual([]);
    // The flow compiler builds its machines on the runtime's engine (`@ringflow/runtime/engine`,
    // with the chunk it shares with the runtime's main entry), and the scenario reader takes the
    // words of call ends (`@ringflow/runtime/call-end`): nothing else of the runtime.
    expect(loads(modules, RUNTIME).filter((url) => !RUNTIME_ENGINE.test(url))).toEqual([]);
    expect(loads(modules, /\/runtime\/dist\/engine\/index\.js$/)).toHaveLength(1);
    expect(loads(modules, TEST_HARNESS)).toEqual([]);
    expect(loads(modules, /\/node_modules\/(undici|ws|rxjs|pino)\//)).toEqual([]);
  });

  it('run --server loads the runtime, and neither the simulator nor the test harness', async () => {
    const simulator = createSimulator({ clock: systemClock });
    const wire = await startWireServer(simulator, { users: [{ username: 'u', password: 'p' }] });
    try {
      const modules = await loadedBy(
        ['run', 'flows/ivr.yaml', '--server', wire.url, '--user', 'u', '--password', 'p', '--format', 'text'],
        /is running as application/,
      );
      expect(loads(modules, RUNTIME).length).toBeGreaterThan(0);
      expect(loads(modules, SIMULATOR)).toEqual([]);
      expect(loads(modules, TEST_HARNESS)).toEqual([]);
      // The metrics server (and its prom-client) only with --http.
      expect(loads(modules, /\/node_modules\/prom-client\//)).toEqual([]);
    } finally {
      await wire.close();
      simulator.close();
    }
  });

  it('run --server --http loads prom-client (metrics, live view), and neither the simulator nor the test harness', async () => {
    const simulator = createSimulator({ clock: systemClock });
    const wire = await startWireServer(simulator, { users: [{ username: 'u', password: 'p' }] });
    try {
      const modules = await loadedBy(
        [
          'run',
          'flows/ivr.yaml',
          '--server',
          wire.url,
          '--user',
          'u',
          '--password',
          'p',
          '--format',
          'text',
          '--http',
          '127.0.0.1:0',
        ],
        /is running as application/,
      );
      expect(loads(modules, /\/node_modules\/prom-client\//).length).toBeGreaterThan(0);
      expect(loads(modules, SIMULATOR)).toEqual([]);
      expect(loads(modules, TEST_HARNESS)).toEqual([]);
    } finally {
      await wire.close();
      simulator.close();
    }
  });
});
