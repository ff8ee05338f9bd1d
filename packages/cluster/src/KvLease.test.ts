import { JetStreamApiError } from '@nats-io/jetstream';
import { VirtualClock } from '@ringflow/client';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { KvLease } from './KvLease.ts';
import { FakeKv, processKv } from './test-support/FakeKv.ts';

/** A lease given up (`release`) whose delete fails: said with its kind, and the lease is let go all the same. */

function leaseOn(kv: FakeKv, failDelete: Error | undefined) {
  const lines: { msg: string; kind?: string; level: number }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const { kv: view } = processKv(kv);
  const failing = new Proxy(view, {
    get(target, property) {
      if (property === 'delete' && failDelete) return async () => Promise.reject(failDelete);
      return Reflect.get(target, property);
    },
  });
  const lease = new KvLease({
    kv: failing,
    key: 'holder.pbx',
    value: () => 'A',
    ttlMs: 5000,
    marginMs: 1500,
    lost: () => {},
    clock: new VirtualClock(),
    logger,
  });
  return { lease, lines };
}

describe('KvLease.release', () => {
  it.each([
    ['error', new Error('Permissions Violation for Publish to "$KV.leases.holder.pbx"')],
    [
      'nats-unavailable',
      new JetStreamApiError({
        err_code: 10008,
        code: 503,
        description: 'JetStream system temporarily unavailable',
      }),
    ],
    ['refused', Object.assign(new Error('wrong last sequence: 7'), { code: 10071 })],
  ])(
    'a delete that fails (%s) is logged as a warning with its kind; the lease is let go',
    async (kind, error) => {
      const kv = new FakeKv();
      const { lease, lines } = leaseOn(kv, error);
      expect(await lease.acquire()).toBe(true);
      await lease.release();
      expect(lease.held).toBe(false);
      expect(lines.filter((l) => l.level === 40).map((l) => l.kind)).toEqual([kind]);
    },
  );

  it('a delete that succeeds logs nothing and frees the key for the next holder', async () => {
    const kv = new FakeKv();
    const { lease, lines } = leaseOn(kv, undefined);
    expect(await lease.acquire()).toBe(true);
    await lease.release();
    expect(lines).toEqual([]);
    expect(await leaseOn(kv, undefined).lease.acquire()).toBe(true);
  });
});
