import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/cli/bin/ringflow.js');

/** Runs the built `ringflow` command to its end: exit code and output. */
async function ringflow(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, out };
}

describe('ringflow test with an audio bot module written in TypeScript', () => {
  it('runs examples/echo-audio-bot: the echo bot (echoAudioBot.ts) loads as the scenarios bot, whatever the Node', async () => {
    // On a Node that runs no TypeScript (20), ringflow compiles the module beside its source and
    // removes the copy; the scenarios still run in virtual time (a loader hook would not).
    const { code, out } = await ringflow(['test', 'examples/echo-audio-bot', '--format', 'json']);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { passed?: unknown; failure?: unknown; scenario?: string });
    expect(
      lines.filter((l) => l.scenario !== undefined && l.passed !== true),
      out,
    ).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ passed: 5, failed: 0 });
    expect(code).toBe(0);
    expect((await readdir(join(root, 'examples/echo-audio-bot'))).filter((f) => f.startsWith('.'))).toEqual(
      [],
    );
  });
});
