import type { KV } from '@nats-io/kv';

/**
 * An in-memory key-value store with NATS's revision rules (an `update` naming another revision
 * than the entry's is refused with "wrong last sequence", 10071), for the lease machines' tests
 * on a virtual clock. `expire` stands for the bucket TTL removing an entry nobody rewrote.
 */
export class FakeKv {
  private seq = 0;
  private readonly entries = new Map<string, { value: string; revision: number; operation: 'PUT' | 'DEL' }>();
  private readonly watchers = new Set<FakeWatch>();

  /**
   * Like the real KV watch of one key: the entry's last value (a delete as operation DEL), then
   * each write and delete (`isUpdate`); a TTL expiry is not pushed (NATS drops it silently).
   */
  async watch(options: { key: string }): Promise<FakeWatch> {
    const watch = new FakeWatch(options.key, () => this.watchers.delete(watch));
    this.watchers.add(watch);
    const entry = this.entries.get(options.key);
    if (entry) watch.push({ key: options.key, ...entry, isUpdate: false });
    return watch;
  }

  async get(key: string) {
    const entry = this.entries.get(key);
    return entry ? { ...entry, string: () => entry.value } : null;
  }

  async create(key: string, value: string): Promise<number> {
    if (this.entries.get(key)?.operation === 'PUT') throw wrongLastSequence();
    return this.write(key, value);
  }

  async update(key: string, value: string, revision: number): Promise<number> {
    if (this.entries.get(key)?.revision !== revision) throw wrongLastSequence();
    return this.write(key, value);
  }

  async delete(key: string, options?: { previousSeq?: number }): Promise<void> {
    const entry = this.entries.get(key);
    if (options?.previousSeq !== undefined && entry?.revision !== options.previousSeq)
      throw wrongLastSequence();
    this.entries.set(key, { value: '', revision: ++this.seq, operation: 'DEL' });
    this.tell(key);
  }

  private tell(key: string): void {
    const entry = this.entries.get(key)!;
    for (const w of this.watchers) if (w.key === key) w.push({ key, ...entry, isUpdate: true });
  }

  /** The bucket's TTL ran out for `key` (nobody rewrote it). */
  expire(key: string): void {
    this.entries.delete(key);
  }

  /** Another process writes `key` (whatever its revision). */
  async put(key: string, value: string): Promise<number> {
    return this.write(key, value);
  }

  private write(key: string, value: string): number {
    this.entries.set(key, { value, revision: ++this.seq, operation: 'PUT' });
    this.tell(key);
    return this.seq;
  }
}

function wrongLastSequence(): Error {
  return Object.assign(new Error('wrong last sequence'), { code: 10071 });
}

interface FakeWatchEntry {
  key: string;
  value: string;
  revision: number;
  operation: 'PUT' | 'DEL';
  isUpdate: boolean;
}

/** A watch's pushed entries, as an async iterator; `stop` ends it, `mute` makes it die silently. */
export class FakeWatch implements AsyncIterable<FakeWatchEntry & { string(): string }> {
  private readonly queue: FakeWatchEntry[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private muted = false;

  constructor(
    readonly key: string,
    private readonly forget: () => void,
  ) {}

  push(entry: FakeWatchEntry): void {
    if (this.muted || this.ended) return;
    this.queue.push(entry);
    this.wake?.();
  }

  stop(): void {
    this.ended = true;
    this.forget();
    this.wake?.();
  }

  /** The watch stops delivering without ending (a consumer lost on the server, unnoticed). */
  mute(): void {
    this.muted = true;
  }

  async *[Symbol.asyncIterator]() {
    for (;;) {
      const entry = this.queue.shift();
      if (entry) yield { ...entry, string: () => entry.value };
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/**
 * A process's view of the store: `freeze` makes every call hang from then on (a killed or frozen
 * process); `muteWatches` makes its watches stop delivering, silently.
 */
export function processKv(kv: FakeKv): { kv: KV; freeze: () => void; muteWatches: () => void } {
  let frozen = false;
  const watches: FakeWatch[] = [];
  const view = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (frozen) return new Promise<never>(() => {});
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (property === 'watch') void (result as Promise<FakeWatch>).then((w) => watches.push(w));
        return result;
      };
    },
  });
  return {
    kv: view as unknown as KV,
    freeze: () => {
      frozen = true;
    },
    muteWatches: () => {
      for (const w of watches) w.mute();
    },
  };
}
