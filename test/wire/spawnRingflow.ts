import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../packages/cli/bin/ringflow.js', import.meta.url));

/** Spawns the real `ringflow` command; `until(text)` resolves once its output contains `text`. */
export function ringflow(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  child.stdout.setEncoding('utf8').on('data', (t: string) => {
    stdout += t;
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (t: string) => {
    stderr += t;
    wake();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const until = async (text: string | RegExp): Promise<string> => {
    const found = () => (typeof text === 'string' ? stdout.includes(text) : text.test(stdout));
    while (!found()) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}; stderr: ${stderr}`);
      await Promise.race([new Promise<void>((w) => waiters.push(w)), exit]);
    }
    return stdout;
  };
  return { child, exit, until, output: () => ({ stdout, stderr }) };
}
