import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../ExitCode.ts';
import { main } from '../main.ts';

const folder = await mkdtemp(join(tmpdir(), 'ringflow-demo-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('the demo live view', () => {
  it('shows a hang-up refused because the caller had left as that, not as a failure', async () => {
    const quiet = { stdout: () => {}, stderr: () => {} };
    expect(await main(['init', join(folder, 'p')], quiet)).toBe(ExitCode.OK);
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t), isTerminal: false };
    const flow = join(folder, 'p/flows/main-menu.yaml');
    expect(await main(['run', flow, '--demo', '--speed', 'max', '--format', 'text'], io)).toBe(ExitCode.OK);
    const text = out.join('');
    // The third scenario: the caller hangs up during the menu, the flow's hang-up finds them gone.
    expect(text).toMatch(/#3 {6}→ hang up c3 .*\(the caller had hung up already\)/);
    expect(text).not.toContain('answered 404');
  });
});
