import { ErrorCode, RingflowError } from '@ringflow/client';
import { JetStreamCallStore, natsToken } from '@ringflow/cluster';
import { Kvm } from '@nats-io/kv';
import {
  type CallEnded,
  type CallInput,
  type CallRecord,
  callActors,
  createApplication,
} from '@ringflow/runtime';
import { createSimulator, startOutboundWebSockets } from '@ringflow/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { captureLogs } from '../reliability/captureLogs.ts';
import { startNatsServer, type TestNatsServer } from './startNatsServer.ts';

let nats: TestNatsServer;
const stores: JetStreamCallStore[] = [];
beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  for (const store of stores) await store.close();
  await nats?.stop();
});

let buckets = 0;
/** A store on its own bucket (tests do not see each other's records), as one process would open it. */
async function storeFor(owner: string, bucket = `calls-${++buckets}`): Promise<JetStreamCallStore> {
  const store = await JetStreamCallStore.connect(nats.url, { bucket, owner });
  stores.push(store);
  return store;
}

function record(callId: string, step: string): CallRecord {
  return {
    version: 1,
    callId,
    channelId: callId,
    asteriskId: '02:fc:00:00:00:01',
    server: 'pbx',
    app: 'ivr',
    direction: 'inbound',
    startedAt: 1000,
    writtenAt: 2000,
    start: { type: 'StasisStart' } as CallRecord['start'],
    owned: [],
    digits: '',
    failures: 0,
    machine: { step },
  };
}

async function rejection(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('JetStreamCallStore (a real nats-server -js on loopback)', () => {
  it('a record NATS lost (killed before it flushed) is written again by its owner, not taken as a takeover', async () => {
    const store = await storeFor('a');
    await store.save(record('lost-1', 'greet'));
    // What a NATS SIGKILL can do: the entry is gone when the server comes back.
    const kv = await new Kvm(store.connection).open(`calls-${buckets}`);
    await kv.purge(`call.${natsToken('ivr')}.${natsToken('lost-1')}`);
    expect(await store.list()).toEqual([]);
    await store.save(record('lost-1', 'menu'));
    expect(await store.ownerOf('lost-1')).toBe('a');
    expect((await store.list()).map((r) => (r.machine as { step: string }).step)).toEqual(['menu']);
    await store.remove('lost-1');
    expect(await store.list()).toEqual([]);
  });

  it('removeOrphans claims the records of a dead owner and removes them; a record claimed by a live process is left', async () => {
    const dead = await storeFor('dead');
    const bucket = `calls-${buckets}`;
    const cleaner = await storeFor('cleaner', bucket);
    const rival = await storeFor('rival', bucket);
    await dead.save(record('gone-1', 'menu'));
    await dead.save(record('gone-2', 'menu'));
    await cleaner.listOwners();
    // A live process took gone-2 over meanwhile: it is its to remove.
    await rival.listOwners();
    expect(await rival.claim('gone-2')).toBeDefined();
    expect(await cleaner.removeOrphans(['gone-1', 'gone-2'])).toBe(1);
    expect((await rival.list()).map((r) => r.callId)).toEqual(['gone-2']);
    expect(await rival.ownerOf('gone-2')).toBe('rival');
  });

  it('keeps records: save, replace, list, remove; ids of any shape', async () => {
    const store = await storeFor('a');
    const id = 'PJSIP/alice-00000001;1.2 é';
    await store.save(record(id, 'greet'));
    await store.save(record(id, 'menu'));
    await store.save(record('1732547001.7', 'greet'));
    const listed = await store.list();
    expect(listed.map((r) => [r.callId, (r.machine as { step: string }).step]).sort()).toEqual([
      ['1732547001.7', 'greet'],
      [id, 'menu'],
    ]);
    expect(await store.ownerOf(id)).toBe('a');
    // The records of one application name, found by their keys (a per-call connection names one call).
    await store.save({ ...record('per-call-1', 'greet'), app: 'ivr:PJSIP/alice-00000001' });
    expect((await store.listApplication('ivr:PJSIP/alice-00000001')).map((r) => r.callId)).toEqual([
      'per-call-1',
    ]);
    expect((await store.listApplication('ivr:PJSIP/bob-00000002')).map((r) => r.callId)).toEqual([]);
    expect((await store.listApplication('ivr')).map((r) => r.callId).sort()).toEqual(['1732547001.7', id]);
    await store.remove('per-call-1');
    await store.remove(id);
    expect((await store.list()).map((r) => r.callId)).toEqual(['1732547001.7']);
    // A second process on the same bucket sees what the first wrote.
    const other = await storeFor('b', `calls-${buckets}`);
    expect((await other.list()).map((r) => r.callId)).toEqual(['1732547001.7']);
  });

  it('one owner at a time: a claim moves the call, the old owner is refused, only the owner removes it', async () => {
    const a = await storeFor('process-a');
    const b = await storeFor('process-b', `calls-${buckets}`);
    await a.save(record('c1', 'menu'));
    const claimed = await b.claim('c1');
    expect(claimed?.machine).toEqual({ step: 'menu' });
    expect(await b.ownerOf('c1')).toBe('process-b');
    // The old owner's next write is refused: it must let the call go.
    const refused = await rejection(a.save(record('c1', 'voicemail')));
    expect(refused).toBeInstanceOf(RingflowError);
    expect((refused as RingflowError).code).toBe(ErrorCode.TAKEN_OVER);
    expect((refused as Error).message).toMatch(/c1: another process took the call over/);
    // ... and so is every later one, and its remove leaves the new owner's record alone.
    expect(((await rejection(a.save(record('c1', 'goodbye')))) as RingflowError).code).toBe(
      ErrorCode.TAKEN_OVER,
    );
    await a.remove('c1');
    expect((await b.list()).map((r) => r.callId)).toEqual(['c1']);
    await b.save(record('c1', 'voicemail'));
    expect((await a.list()).map((r) => (r.machine as { step: string }).step)).toEqual(['voicemail']);
    await b.remove('c1');
    expect(await b.list()).toEqual([]);
    expect(await b.claim('c1')).toBeUndefined();
  });

  it('two processes claiming the same call: exactly one gets it', async () => {
    const a = await storeFor('a');
    const rivals = await Promise.all(['b', 'c', 'd'].map((o) => storeFor(o, `calls-${buckets}`)));
    await a.save(record('c1', 'menu'));
    // Each found the call in its listing, owned by a (as the runtime lists before it claims).
    for (const rival of rivals) expect((await rival.list()).map((r) => r.callId)).toEqual(['c1']);
    const results = await Promise.all(rivals.map((s) => s.claim('c1')));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    const winner = rivals[results.findIndex((r) => r !== undefined)]!;
    expect(await a.ownerOf('c1')).toBe(winner.owner);
    await winner.save(record('c1', 'voicemail'));
    for (const loser of rivals.filter((s) => s !== winner))
      expect(((await rejection(loser.save(record('c1', 'x')))) as RingflowError).code).toBe(
        ErrorCode.TAKEN_OVER,
      );
  });

  it('a write of its own that landed without its reply (a NATS restart) does not look like a takeover', async () => {
    const a = await storeFor('a');
    // The same owner writing behind the store's back: what a write whose reply was lost leaves.
    const landed = await storeFor('a', `calls-${buckets}`);
    await a.save(record('c1', 'menu'));
    await landed.save(record('c1', 'menu-again'));
    await a.save(record('c1', 'voicemail'));
    expect((await a.list()).map((r) => (r.machine as { step: string }).step)).toEqual(['voicemail']);
    expect(await a.ownerOf('c1')).toBe('a');
  });

  it('a new call whose record another process already wrote is refused', async () => {
    const a = await storeFor('a');
    const b = await storeFor('b', `calls-${buckets}`);
    await a.save(record('c1', 'menu'));
    expect(((await rejection(b.save(record('c1', 'greet')))) as RingflowError).code).toBe(
      ErrorCode.TAKEN_OVER,
    );
  });

  it('says what is wrong with bad options and unreachable servers', async () => {
    await expect(JetStreamCallStore.connect('http://127.0.0.1:4222')).rejects.toThrow(
      /"http:\/\/127.0.0.1:4222" is not a NATS address: give nats:\/\/host:port/,
    );
    await expect(JetStreamCallStore.connect(nats.url, { bucket: 'no spaces' })).rejects.toThrow(
      /bucket "no spaces" is not a valid bucket name/,
    );
    await expect(JetStreamCallStore.connect(nats.url, { replicas: 2 })).rejects.toThrow(
      /replicas is 2: give 1, 3 or 5/,
    );
    await expect(JetStreamCallStore.connect(nats.url, { maxAgeMs: 0 })).rejects.toThrow(/maxAgeMs is 0/);
    // A port nobody listens on (the server's own port, once stopped, is not known free: use 1).
    const error = await rejection(JetStreamCallStore.connect('nats://127.0.0.1:1'));
    expect((error as RingflowError).code).toBe(ErrorCode.NETWORK);
    expect((error as Error).message).toMatch(/cannot connect to NATS at nats:\/\/127.0.0.1:1/);
  });
});

/**
 * Answer, wait for a key, then for a second one, say it, hang up. The second wait keeps the call
 * still after the first key: the write that follows it is refused, and nothing else happens
 * meanwhile (writes do not hold a call's steps back, so a quicker flow could run steps until the
 * refusal comes back).
 */
const sayKey = setup({ types: { input: {} as CallInput }, actors: callActors }).createMachine({
  initial: 'answering',
  states: {
    answering: { invoke: { src: 'answer', onDone: 'asking' } },
    asking: {
      invoke: {
        src: 'collectDigits',
        input: { maxDigits: 1, firstDigitTimeoutMs: 60_000 },
        onDone: 'askingAgain',
      },
    },
    askingAgain: {
      invoke: {
        src: 'collectDigits',
        input: { maxDigits: 1, firstDigitTimeoutMs: 60_000 },
        onDone: 'telling',
      },
    },
    telling: { invoke: { src: 'userEvent', input: { name: 'KeyHeard' }, onDone: 'leaving' } },
    leaving: { invoke: { src: 'hangup', onDone: 'done' } },
    done: { type: 'final' },
  },
});

describe('an application on a JetStreamCallStore', () => {
  it('writes its call while it runs, and lets it go at its next step when another process claims it', async () => {
    const mine = await storeFor('process-a');
    const rival = await storeFor('process-b', `calls-${buckets}`);
    const logs = captureLogs('info');
    const ended: CallEnded[] = [];
    const app = createApplication({
      servers: [],
      apps: ['ow-call'],
      call: sayKey,
      store: mine,
      logger: logs.logger,
      listen: { port: 0, path: '/ari-call', accounts: [{ username: 'u', password: 'p' }] },
      onCallEnded: (c) => ended.push(c),
    });
    await app.start();
    const sim = createSimulator({
      dialplan: { text: '[ow]\nexten => percall,1,Stasis(ow-call)\n same => n,Hangup()\n' },
    });
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri: `ws://127.0.0.1:${app.listening!.port}/ari-call`,
          apps: ['ow-call'],
          username: 'u',
          password: 'p',
        },
      ],
    });
    try {
      const caller = sim.driver.placeCall({ context: 'ow', to: 'percall' });
      const deadline = Date.now() + 10_000;
      const asking = () =>
        (mine.list() as Promise<CallRecord[]>).then((records) =>
          records.some(
            (r) =>
              r.callId === caller && JSON.stringify((r.machine as { value?: unknown }).value) === '"asking"',
          ),
        );
      while (!(await asking())) {
        if (Date.now() > deadline) throw new Error('the call record never said "asking"');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await mine.ownerOf(caller)).toBe('process-a');
      // Another process claims the call (as one reached by the server's re-dial would).
      expect(await rival.claim(caller)).toBeDefined();
      sim.driver.pressDigits(caller, '5');
      while (ended.length === 0) {
        if (Date.now() > deadline) throw new Error('the first process never let the call go');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(ended.map((c) => c.outcome)).toEqual(['detached']);
      expect(
        logs
          .records()
          .some((r) => r.msg === 'another process took the call over; this one lets it go untouched'),
      ).toBe(true);
      // The record is the new owner's, left in the bucket for it.
      expect(await rival.ownerOf(caller)).toBe('process-b');
    } finally {
      await outbound.close();
      await app.stop();
      await sim.close();
    }
  });
});
