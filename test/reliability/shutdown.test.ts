import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./shutdownChild.ts', import.meta.url));

/** Runs the child service, waits for `ready`, sends the signal, returns its exit code and output lines. */
function runAndSignal(signal: NodeJS.Signals, deadlineMs: number) {
  return new Promise<{ code: number | null; lines: Record<string, unknown>[] }>((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, String(deadlineMs)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    // A service that never gets ready is a failure, not a hung test.
    const giveUp = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('ready\n') && !proc.killed) proc.kill(signal);
    });
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      clearTimeout(giveUp);
      if (!out.includes('ready\n')) reject(new Error(`the service never got ready: ${err || out}`));
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, lines });
    });
  });
}

describe('shutdown: SIGTERM drains calls until the deadline, hangs up the rest, exits 0', () => {
  it('polite calls end during the drain, the others are hung up at the deadline, nothing is left', async () => {
    const { code, lines } = await runAndSignal('SIGTERM', 400);
    expect(code).toBe(0);
    const ended = Object.fromEntries(
      lines.filter((l) => l.msg === 'call ended').map((l) => [l.call as string, l.outcome]),
    );
    expect(ended).toEqual({
      'polite-a': 'completed',
      'polite-b': 'completed',
      'stays-a': 'drained',
      'stays-b': 'drained',
    });
    const messages = lines.map((l) => l.msg);
    expect(messages).toContain('shutdown requested: draining calls');
    expect(messages).toContain('drain deadline passed; hanging up the calls left');
    expect(messages).toContain('shutdown complete');
    const final = lines.find((l) => l.final) as { channelsLeft: number; causes: Record<string, number> };
    expect(final.channelsLeft).toBe(0);
    // Every channel was hung up (normal clearing) before the process exited: the simulator is
    // never closed in the child, so only the application's hangups can have ended them.
    expect(final.causes).toEqual({ 'polite-a': 16, 'polite-b': 16, 'stays-a': 16, 'stays-b': 16 });
  }, 30_000);

  it('SIGINT does the same', async () => {
    const { code, lines } = await runAndSignal('SIGINT', 50);
    expect(code).toBe(0);
    expect(lines.filter((l) => l.msg === 'call ended')).toHaveLength(4);
  }, 30_000);
});
