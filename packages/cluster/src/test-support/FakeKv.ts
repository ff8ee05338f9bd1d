import type { KV } from '@nats-io/kv';

/**
 * An in-memory key-value store with NATS's revision rules (an `update` naming another revision
 * than the entry's is refused with "wrong last sequence", 10071), for the lease machines' tests
 * on a virtual clock. `expire` stands for the bucket TTL removing an entry nobody rewrote.
 */
export class FakeKv {
  private seq = 0;
  private readonly entries = new Map<string, { value: string; revision: number; operation: 'PUT' | 'DEL' }>();

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
    return this.seq;
  }
}

function wrongLastSequence(): Error {
  return Object.assign(new Error('wrong last sequence'), { code: 10071 });
}

/** A process's view of the store: `freeze` makes every call hang from then on (a killed or frozen process). */
export function processKv(kv: FakeKv): { kv: KV; freeze: () => void } {
  let frozen = false;
  const view = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        frozen ? new Promise<never>(() => {}) : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
  return {
    kv: view as unknown as KV,
    freeze: () => {
      frozen = true;
    },
  };
}
