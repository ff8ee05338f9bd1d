import { type ChildProcess, fork } from 'node:child_process';

/** A message the parent sends: run `op` with `args`, answer with the same `id`. */
export interface Request {
  readonly id: number;
  readonly op: string;
  readonly args?: unknown;
}

/** A child's answer, or the `ready` message it sends once it has started. */
export type Reply =
  | { readonly id: number; readonly result: unknown }
  | { readonly id: number; readonly error: string }
  | { readonly ready: unknown };

export interface ChildOptions {
  /** Extra node flags (`--cpu-prof`, `--max-old-space-size=...`). */
  readonly nodeFlags?: readonly string[];
  /** Values the child reads from `process.env`. */
  readonly env?: Readonly<Record<string, string>>;
  /** How long the child may take to say it is ready. Default 30 s. */
  readonly readyTimeoutMs?: number;
  /**
   * The module is plain JavaScript (see `bench/process/bundleForNode.ts`): node runs it without
   * tsx, whose loader hooks (a worker thread holding every module's source) would count in the
   * child's resident memory. Default false: the module is TypeScript, run with tsx.
   */
  readonly javascript?: boolean;
}

/**
 * One bench process (simulator or application) run from TypeScript with tsx (or from a plain
 * JavaScript bundle of it, {@link ChildOptions.javascript}), spoken to over the
 * IPC channel: `request(op, args)` resolves with what the child's handler returned.
 *
 * @example
 * const sim = await ChildLink.start(new URL('../load/simulatorProcess.ts', import.meta.url));
 * const { url } = sim.ready as { url: string };
 * await sim.request('hold', { calls: 100 });
 * await sim.stop();
 */
export class ChildLink {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private exited = false;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly ready: unknown,
  ) {
    child.on('message', (message: Reply) => {
      if (!('id' in message)) return;
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if ('error' in message) waiter.reject(new Error(`${this.name}: ${message.error}`));
      else waiter.resolve(message.result);
    });
    child.on('exit', (code, signal) => {
      this.exited = true;
      for (const waiter of this.pending.values())
        waiter.reject(new Error(`${this.name} exited (code ${code}, signal ${signal}) before answering`));
      this.pending.clear();
    });
  }

  /** Starts `module` in a new node process and waits for its `ready` message. */
  static start(module: URL, name: string, options: ChildOptions = {}): Promise<ChildLink> {
    const child = fork(module.pathname, [], {
      execArgv: [
        ...(options.javascript ? [] : ['--import', 'tsx']),
        '--expose-gc',
        ...(options.nodeFlags ?? []),
      ],
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`${name} did not start within ${options.readyTimeoutMs ?? 30_000} ms`));
      }, options.readyTimeoutMs ?? 30_000);
      const onReady = (message: Reply) => {
        if (!('ready' in message)) return;
        clearTimeout(timer);
        child.off('message', onReady);
        resolve(new ChildLink(name, child, message.ready));
      };
      child.on('message', onReady);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with code ${code} before it was ready (see its output above)`));
      });
    });
  }

  /** Asks the child to run `op`; rejects with the child's error message if its handler threw. */
  request<T = unknown>(op: string, args?: unknown): Promise<T> {
    if (this.exited) return Promise.reject(new Error(`${this.name} has exited; cannot run ${op}`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, op, args } satisfies Request);
    });
  }

  /**
   * Asks the child to finish (`exit` op: it closes what it holds and exits, writing its CPU
   * profile when profiling), and kills it if it has not gone after `graceMs`.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.request('exit').catch(() => {});
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }
}
