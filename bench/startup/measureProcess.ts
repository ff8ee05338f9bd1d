import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Preloaded into a measured process: at exit it writes its peak resident memory (kB) and its CPU
 * time (µs, user + system) on fd 3. One tiny data: module, so it does not move the figures.
 */
const REPORT_USAGE =
  'data:text/javascript,import{writeSync}from"node:fs";process.on("exit",()=>{const u=process.resourceUsage();try{writeSync(3,`${u.maxRSS} ${u.userCPUTime+u.systemCPUTime}`)}catch{}})';

/**
 * One run of a short command: wall time from spawn to exit, CPU time (what the command costs
 * whatever else the machine runs) and peak resident memory.
 */
export interface CommandRun {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMb: number;
  readonly exitCode: number | null;
  readonly stderr: string;
}

/**
 * Runs `node <args>` to its end and measures it.
 *
 * @example
 * const { wallMs, peakRssMb } = await runCommand(['packages/cli/bin/ringflow.js', '--help']);
 */
export function runCommand(args: readonly string[], cwd: string): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', REPORT_USAGE, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let usage = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdio[3]!.on('data', (d: Buffer) => {
      usage += d.toString();
    });
    child.on('error', reject);
    child.on('close', (exitCode) => {
      const [peakKb, cpuUs] = usage.split(' ').map(Number);
      resolve({
        wallMs: performance.now() - started,
        cpuMs: cpuUs! / 1000,
        peakRssMb: peakKb! / 1024,
        exitCode,
        stderr,
      });
    });
  });
}

/**
 * Starts `node <args>`, waits until its stdout contains `ready`, lets it sit idle for `idleMs`,
 * reads its resident memory (VmRSS, Linux), then stops it with SIGTERM.
 *
 * @example
 * const rssMb = await idleResidentMemory(['bench/startup/bareIdleApp.js', url, 'u', 'p', 'ivr'], /is running/, 2000, root);
 */
export function idleResidentMemory(
  args: readonly string[],
  ready: RegExp,
  idleMs: number,
  cwd: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let measured = false;
    const onOutput = (d: Buffer) => {
      output += d.toString();
      if (measured || !ready.test(output)) return;
      measured = true;
      setTimeout(() => {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]);
        child.kill('SIGTERM');
        resolve(kb / 1024);
      }, idleMs);
    };
    child.stdout!.on('data', onOutput);
    child.stderr!.on('data', onOutput);
    child.on('error', reject);
    child.on('close', (code) => {
      if (!measured) reject(new Error(`node ${args.join(' ')} exited (${code}) before ready:\n${output}`));
    });
  });
}
