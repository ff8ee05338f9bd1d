import { VirtualClock } from '@ringflow/client';
import type { KV } from '@nats-io/kv';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { HolderElection } from './HolderElection.ts';

/**
 * The election's bounds on a virtual clock, over an in-memory key-value store with NATS's
 * revision rules (an `update` naming another revision than the entry's is refused with
 * "wrong last sequence", 10071).
 */
class FakeKv {
  private seq = 0;
  private readonly entries = new Map<string, { value: string; revision: number; operation: 'PUT' | 'DEL' }>();

  async get(key: string) {
    const entry = this.entries.get(key);
    return entry ? { ...entry, string: () => entry.value } : null;
  }

  async create(key: string, value: string): Promise<number> {
    if (this.entries.get(key)?.operation === 'PUT') throw wrongLastSequence();
    return this.put(key, value);
  }

  async update(key: string, value: string, revision: number): Promise<number> {
    if (this.entries.get(key)?.revision !== revision) throw wrongLastSequence();
    return this.put(key, value);
  }

  async delete(key: string, options?: { previousSeq?: number }): Promise<void> {
    const entry = this.entries.get(key);
    if (options?.previousSeq !== undefined && entry?.revision !== options.previousSeq)
      throw wrongLastSequence();
    this.entries.set(key, { value: '', revision: ++this.seq, operation: 'DEL' });
  }

  private put(key: string, value: string): number {
    this.entries.set(key, { value, revision: ++this.seq, operation: 'PUT' });
    return this.seq;
  }
}

function wrongLastSequence(): Error {
  return Object.assign(new Error('wrong last sequence'), { code: 10071 });
}

/** A process's view of the store: `dead` makes every call hang (a killed or frozen process). */
function processKv(kv: FakeKv): { kv: KV; freeze: () => void } {
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

function cluster(names: readonly string[]) {
  const clock = new VirtualClock();
  const store = new FakeKv();
  const happened: { name: string; what: 'held' | 'lost'; at: number }[] = [];
  const processes = new Map<string, { election: HolderElection; freeze: () => void }>();
  for (const name of names) {
    const { kv, freeze } = processKv(store);
    const election = new HolderElection({
      kv,
      key: 'events.s.a',
      me: name,
      renewMs: 200,
      takeoverMs: 800,
      held: () => happened.push({ name, what: 'held', at: clock.now() }),
      lost: () => happened.push({ name, what: 'lost', at: clock.now() }),
      logger: pino({ level: 'silent' }),
      clock,
    });
    processes.set(name, { election, freeze });
  }
  const holders = () => [...processes].filter(([, p]) => p.election.holding).map(([name]) => name);
  return { clock, happened, processes, holders };
}

describe('HolderElection on a virtual clock', () => {
  it('a holder that renews keeps the lease; frozen, it lets go 600 ms after its last renewal was sent, and one standby takes over 800 ms after it last saw the revision change', async () => {
    const { clock, happened, processes, holders } = cluster(['a', 'b', 'c']);
    processes.get('a')!.election.start();
    await clock.advance(10);
    expect(holders()).toEqual(['a']);
    processes.get('b')!.election.start();
    processes.get('c')!.election.start();
    await clock.advance(10_000);
    expect(holders()).toEqual(['a']);
    expect(happened.map((h) => `${h.name} ${h.what}`)).toEqual(['a held']);
    const frozenAt = clock.now();
    processes.get('a')!.freeze(); // a's process freezes: its renewals never answer
    await clock.advance(2_000);
    const lost = happened.find((h) => h.name === 'a' && h.what === 'lost')!;
    const taken = happened.filter((h) => h.name !== 'a' && h.what === 'held');
    expect(taken).toHaveLength(1);
    expect(lost.at).toBeLessThan(taken[0]!.at);
    // a's last renewal was sent 0-200 ms before the freeze: it lets go 400-600 ms after it; a
    // standby saw that revision within 50 ms of its write and takes over 800 ms after that.
    expect(lost.at - frozenAt).toBeGreaterThanOrEqual(400);
    expect(lost.at - frozenAt).toBeLessThanOrEqual(600);
    expect(taken[0]!.at - frozenAt).toBeGreaterThanOrEqual(600);
    expect(taken[0]!.at - frozenAt).toBeLessThanOrEqual(850);
    expect(holders().filter((h) => h !== 'a')).toEqual([taken[0]!.name]);
  });

  it('a stopped holder releases the lease and a standby takes it at its next read', async () => {
    const { clock, happened, processes, holders } = cluster(['a', 'b']);
    processes.get('a')!.election.start();
    await clock.advance(10);
    processes.get('b')!.election.start();
    await clock.advance(1_000);
    const stoppedAt = clock.now();
    await processes.get('a')!.election.stop();
    await clock.advance(100);
    expect(holders()).toEqual(['b']);
    expect(happened.find((h) => h.name === 'b')!.at - stoppedAt).toBeLessThanOrEqual(50);
  });
});
