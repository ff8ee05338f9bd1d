import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A `nats-server -js` started for a test, on 127.0.0.1, with its own store directory. */
export interface TestNatsServer {
  /** `nats://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** The server process's pid (a new one after {@link restart}); for CPU figures. */
  readonly pid: number;
  /** Stops the server and starts it again on the same port with the same store directory. */
  restart(): Promise<void>;
  /**
   * Kills the server with SIGKILL (no shutdown: JetStream writes not yet flushed to its files are
   * lost, so a stream may come back shorter) and resolves once it exited; {@link start} it again.
   */
  kill(): Promise<void>;
  /** Starts a killed server again on the same port with the same store directory. */
  start(): Promise<void>;
  /** Stops the server (SIGTERM, then SIGKILL) and removes its store directory. */
  stop(): Promise<void>;
}

const READY = /Listening for client connections on [^:\s]+:(\d+)/;
const START_TIMEOUT_MS = 10_000;

/**
 * Starts Debian's `nats-server` with JetStream on a free loopback port (the server picks it:
 * `-p -1`) and a temporary store directory; resolves once it accepts clients. Fails with a clear
 * message when the command is missing (`.ci/run` installs the package when it is).
 *
 * @example
 * const nats = await startNatsServer();
 * const store = await JetStreamCallStore.connect(nats.url);
 */
export async function startNatsServer(): Promise<TestNatsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ringflow-nats-'));
  let running: { child: ChildProcess; port: number };
  try {
    running = await spawnNats(dir, -1);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const port = running.port;
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    get pid() {
      return running.child.pid!;
    },
    restart: async () => {
      await stopChild(running.child);
      running = await spawnNats(dir, port);
    },
    kill: async () => {
      const child = running.child;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
    start: async () => {
      running = await spawnNats(dir, port);
    },
    stop: async () => {
      await stopChild(running.child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `nats-server -js` on `port` (-1: a free one) with `dir` as its store; resolves with the port. */
function spawnNats(dir: string, port: number): Promise<{ child: ChildProcess; port: number }> {
  return spawnNatsServer(['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], START_TIMEOUT_MS);
}

/**
 * Starts `nats-server` with `args` and resolves once it accepts clients, with the port it listens
 * on; a server that fails to start (not installed, exits, or silent for `timeoutMs`) is stopped
 * and the error says why, with what it printed. Shared by the one-node and the cluster helpers.
 */
export async function spawnNatsServer(
  args: readonly string[],
  timeoutMs: number,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn('nats-server', [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const listening = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`nats-server did not start within ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      const seen = (chunk: Buffer) => {
        output += chunk.toString();
        const match = READY.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      };
      child.stdout?.on('data', seen);
      child.stderr?.on('data', seen);
      child.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(
          error.code === 'ENOENT'
            ? new Error('nats-server is not installed: apt-get install -y nats-server (Debian package)')
            : error,
        );
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`nats-server exited with code ${code}:\n${output}`));
      });
    });
    return { child, port: listening };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Stops a `nats-server` child: SIGTERM, SIGKILL after 5 s; resolves once it exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}
