import { type StasisStart, VirtualClock } from '@ringflow/client';
import type { KV } from '@nats-io/kv';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { FakeKv } from '../test-support/FakeKv.ts';
import { type LeaseWrites, leaseWrites } from './leaseWrites.ts';
import { workerRoleMachine } from './workerRoleMachine.ts';

/**
 * A worker's lease and turns on a virtual clock (renewMs 1000, TTL 5000, margin 1500), over an
 * in-memory bucket whose answers the test holds back ('hang') or fails ('fail': NATS away).
 */
function worker() {
  const clock = new VirtualClock();
  const kv = new FakeKv();
  const key = 'worker.w1';
  const base = leaseWrites(kv as unknown as KV, key);
  let mode: 'ok' | 'fail' | 'hang' = 'ok';
  const held: (() => void)[] = [];
  const gate = <T>(work: () => Promise<T>): Promise<T> => {
    if (mode === 'fail') return Promise.reject(Object.assign(new Error('TIMEOUT'), { code: 'TIMEOUT' }));
    if (mode === 'hang')
      return new Promise<T>((resolve, reject) => held.push(() => void work().then(resolve, reject)));
    return work();
  };
  const writes: LeaseWrites = {
    create: (value) => gate(() => base.create(value)),
    update: (value, revision) => gate(() => base.update(value, revision)),
    remove: (revision) => gate(() => base.remove(revision)),
  };
  const happened: string[] = [];
  const t0 = clock.now();
  const at = () => clock.now() - t0;
  const machine = workerRoleMachine({
    writes,
    value: () => 'w1',
    list: async () => new Set(['w1', 'w2']),
    renewMs: 1_000,
    ttlMs: 5_000,
    marginMs: 1_500,
    turn: () => {},
    listed: (_, turn) => happened.push(`listed ${turn.trusted ? 'trusted' : 'untrusted'}`),
    untrusted: () => happened.push('untrusted'),
    fence: () => happened.push(`fenced at ${at()}`),
    rejoined: (refused) =>
      happened.push(`rejoined at ${at()} with [${refused.map((s) => s.channel.id).join()}]`),
    logger: pino({ level: 'silent' }),
    clock,
  });
  return {
    clock,
    kv,
    key,
    happened,
    at,
    held,
    setMode: (next: typeof mode) => {
      mode = next;
    },
    start: async () => {
      const revision = await kv.create(key, 'w1');
      return createActor(machine, { clock, input: { revision, acceptedAt: clock.now() } }).start();
    },
  };
}

const start = (id: string) => ({ type: 'StasisStart', channel: { id } }) as unknown as StasisStart;

describe('the worker role on a virtual clock', () => {
  it('renewals that fail (NATS away) fence the worker TTL − margin after the last accepted one was sent; calls arriving meanwhile are kept; once its entry expired, it takes the lease again and offers them', async () => {
    const w = worker();
    const actor = await w.start();
    await w.clock.advance(10_500); // renewals sent at 1000 … 10000, all accepted
    expect(actor.getSnapshot().matches('live')).toBe(true);
    expect(w.happened.filter((h) => h.startsWith('fenced'))).toEqual([]);
    w.setMode('fail');
    await w.clock.advance(3_999);
    // The last accepted renewal was sent at 10000: fenced at 10000 + 5000 − 1500, not before.
    expect(w.happened.filter((h) => h.startsWith('fenced'))).toEqual(['fenced at 13500']);
    expect(actor.getSnapshot().matches('fenced')).toBe(true);
    expect(w.happened).toContain('untrusted'); // failed turns do not count absences
    actor.send({ type: 'refused', start: start('c1') });
    w.setMode('ok');
    await w.clock.advance(3_000);
    // Its entry is still on the server (not expired yet): taking it again is refused.
    expect(actor.getSnapshot().matches('fenced')).toBe(true);
    expect(w.happened.at(-1)).toBe('listed untrusted');
    w.kv.expire(w.key);
    await w.clock.advance(1_000);
    expect(actor.getSnapshot().matches('live')).toBe(true);
    const rejoined = w.happened.filter((h) => h.startsWith('rejoined'));
    expect(rejoined).toHaveLength(1);
    expect(rejoined[0]).toMatch(/^rejoined at 1[78]\d{3} with \[c1\]$/);
    expect(w.happened.at(-1)).toBe('listed trusted');
    actor.stop();
  });

  it('a renewal that never answers fences the worker at its deadline; its late answer does not bring the lease back', async () => {
    const w = worker();
    const actor = await w.start();
    await w.clock.advance(10_500);
    w.setMode('hang');
    await w.clock.advance(60_000);
    // The renewal sent at 11000 hangs: no further renewal, but the deadline still comes; then
    // the first try to take the lease again hangs too.
    expect(w.held).toHaveLength(2);
    expect(w.happened.filter((h) => h.startsWith('fenced'))).toEqual(['fenced at 13500']);
    expect(actor.getSnapshot().matches({ fenced: 'rejoining' })).toBe(true);
    // NATS answers at last: the renewal is written on the server, but the worker stays fenced
    // (it let its calls go; it takes the lease again only by a create once the entry expired).
    w.setMode('ok');
    for (const answer of w.held.splice(0)) answer();
    await w.clock.advance(2_000);
    expect(actor.getSnapshot().matches('fenced')).toBe(true);
    expect(actor.getSnapshot().context.revision).toBeUndefined();
    w.kv.expire(w.key);
    await w.clock.advance(1_000);
    expect(actor.getSnapshot().matches('live')).toBe(true);
    actor.stop();
  });

  it('a renewal refused (another process wrote the entry) fences at once', async () => {
    const w = worker();
    const actor = await w.start();
    await w.clock.advance(2_500);
    await w.kv.put(w.key, 'intruder');
    await w.clock.advance(1_000);
    expect(w.happened.filter((h) => h.startsWith('fenced'))).toEqual(['fenced at 3000']);
    actor.stop();
  });
});
