import { JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { ErrorCode } from '@ringflow/client';
import type { CallRecord } from '@ringflow/runtime';
import { describe, expect, it } from 'vitest';
import { JetStreamCallStore } from './JetStreamCallStore.ts';
import { FakeBucket } from './test-support/FakeBucket.ts';

/**
 * A call's entry vanished from the bucket (NATS killed and its last writes lost): the owner
 * writes it again. Only a refusal of that write (another process made the entry: it claimed the
 * call) means the call was taken over; any other failure is thrown as it came and the call stays
 * this process's.
 */

const BUCKET = 'ringflow-calls';

function record(callId: string, writtenAt: number): CallRecord {
  return {
    version: 1,
    callId,
    channelId: callId,
    asteriskId: 'pbx-1',
    server: 'pbx',
    app: 'ivr',
    startedAt: 0,
    writtenAt,
    start: { type: 'StasisStart', channel: { id: callId } },
    owned: [],
    digits: '',
    failures: 0,
    machine: { status: 'active', value: 'asking' },
  } as unknown as CallRecord;
}

function storeOf(bucket: FakeBucket, owner: string): JetStreamCallStore {
  const { kv, jsm } = bucket.view(owner);
  const make = JetStreamCallStore as unknown as new (
    ...args: [KV, JetStreamManager, string, string, unknown, undefined]
  ) => JetStreamCallStore;
  return new make(kv, jsm, BUCKET, owner, {}, undefined);
}

/** Empties the bucket as a NATS server that lost its data does. */
function loseEntries(bucket: FakeBucket): void {
  bucket.entries.clear();
}

describe('JetStreamCallStore: an entry that vanished', () => {
  it("a failure to write it again that is not a refusal is thrown as it came; the call stays this process's", async () => {
    const bucket = new FakeBucket(BUCKET);
    const store = storeOf(bucket, 'A');
    await store.save(record('c1', 1));
    await store.save(record('c1', 2));
    loseEntries(bucket);
    const denied = new JetStreamApiError({
      err_code: 10077,
      code: 400,
      description: 'maximum messages exceeded',
    });
    let failing = true;
    bucket.rules.push((r) => (failing && r.method === 'create' ? denied : undefined));
    const error = await store.save(record('c1', 3)).catch((e: unknown) => e);
    expect(error).toBe(denied);
    failing = false;
    await store.save(record('c1', 4));
    expect(bucket.ownerOf('c1')).toBe('A');
  });

  it('written again by another process meanwhile: the call was taken over', async () => {
    const bucket = new FakeBucket(BUCKET);
    const store = storeOf(bucket, 'A');
    await store.save(record('c1', 1));
    await store.save(record('c1', 2));
    const key = [...bucket.entries.keys()][0]!;
    loseEntries(bucket);
    await storeOf(bucket, 'B').save(record('c1', 3));
    expect([...bucket.entries.keys()]).toEqual([key]);
    // A's update is refused (the revision is B's), the entry is read (B's)...
    const error = await store.save(record('c1', 4)).catch((e: unknown) => e);
    expect((error as { code?: unknown }).code).toBe(ErrorCode.TAKEN_OVER);
    expect(bucket.ownerOf('c1')).toBe('B');
  });

  it('made by another process between the read and the write again: the call was taken over', async () => {
    const bucket = new FakeBucket(BUCKET);
    const store = storeOf(bucket, 'A');
    const other = storeOf(bucket, 'B');
    await store.save(record('c1', 1));
    await store.save(record('c1', 2));
    loseEntries(bucket);
    let once = true;
    bucket.rules.push((r) => {
      if (!once || r.process !== 'A' || r.method !== 'create') return undefined;
      once = false;
      return other.save(record('c1', 3));
    });
    const error = await store.save(record('c1', 4)).catch((e: unknown) => e);
    expect((error as { code?: unknown }).code).toBe(ErrorCode.TAKEN_OVER);
    expect(bucket.ownerOf('c1')).toBe('B');
    // Let go: no more writes.
    await expect(store.save(record('c1', 5))).rejects.toMatchObject({ code: ErrorCode.TAKEN_OVER });
  });
});
