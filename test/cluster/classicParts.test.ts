import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TransportRequest } from '@ringflow/client';
import {
  AssigningRestTransport,
  ClassicCluster,
  EVENTS_STREAM,
  eventSubject,
  HolderElection,
  JetStreamCallStore,
  JetStreamEventFeed,
  KvLease,
} from '@ringflow/cluster';
import { jetstream, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startNatsServer } from './startNatsServer.ts';
import { until as untilValue } from '@ringflow/testing';

/** The parts of classic cluster mode on their own: the KV lease, the assigning transport, bad input. */

/** `ringflow run flows/ivr.yaml ...args` until it exits: its exit code and what it wrote on stderr. */
async function runIvr(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const bin = fileURLToPath(new URL('../../packages/cli/bin/ringflow.js', import.meta.url));
  const ivr = fileURLToPath(new URL('../../flows/ivr.yaml', import.meta.url));
  const child = spawn(process.execPath, [bin, 'run', ivr, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (t: string) => {
    stderr += t;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stderr };
}

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<boolean> =>
  untilValue(what, check, { timeoutMs, everyMs: 25 });

describe('KvLease (bucket TTL)', () => {
  it('one holder at a time; a holder that stops renewing gives the lease up on its own side before another can take it; a refused renewal is a loss', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const nc = await connect({ servers: nats.url });
    cleanups.push(() => nc.close());
    const kv = await new Kvm(nc).create('test-leases', { history: 1, ttl: 1_500 });
    const lost: string[] = [];
    const lease = (name: string) =>
      new KvLease({
        kv,
        key: 'events.x',
        value: () => name,
        ttlMs: 1_500,
        marginMs: 300,
        lost: (why) => lost.push(`${name}: ${why}`),
      });
    const a = lease('a');
    const b = lease('b');
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    await a.renew();
    expect(await b.acquire()).toBe(false);
    // a stops renewing (its renewals hang, or it is cut from NATS): the entry expires with the
    // bucket's TTL and b takes it — but a had given it up by its own timer first.
    let aHeldWhenBTookIt: boolean | undefined;
    await until('b to take the lapsed lease', async () => {
      const held = a.held;
      if (!(await b.acquire())) return false;
      aHeldWhenBTookIt = held;
      return true;
    });
    expect(aHeldWhenBTookIt).toBe(false);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(/^a: no renewal accepted for \d+ ms \(the lease lives 1500 ms\)$/);
    // Released on purpose: the next acquire wins at once.
    await b.release();
    expect(await a.acquire()).toBe(true);
    expect((await kv.get('events.x'))?.string()).toBe('a');
    // Another process wrote the entry (a's lease had lapsed unseen): a's next renewal is refused.
    await kv.put('events.x', 'c');
    await a.renew();
    expect(a.held).toBe(false);
    expect(lost[1]).toBe('a: another process holds the lease now (the renewal was refused)');
    await a.release();
  }, 30_000);

  it('gives the lease up at TTL less margin after the last renewal accepted, even while a renewal hangs', async () => {
    vi.useFakeTimers();
    cleanups.push(() => vi.useRealTimers());
    let revision = 0;
    const kv = {
      create: async () => ++revision,
      // The first renewal is accepted; the next ones never answer (NATS away).
      update: (_key: string, _value: string, _rev: number) =>
        revision < 2 ? Promise.resolve(++revision) : new Promise<number>(() => {}),
    } as unknown as KV; // Only create and update are used by acquire and renew.
    const lost: string[] = [];
    const lease = new KvLease({
      kv,
      key: 'k',
      value: () => 'me',
      ttlMs: 5_000,
      marginMs: 1_500,
      lost: (why) => lost.push(why),
    });
    expect(await lease.acquire()).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    await lease.renew(); // accepted at t = 1000: the lease is safe until 1000 + 5000 − 1500 = 4500
    void lease.renew(); // hangs
    await vi.advanceTimersByTimeAsync(3_499);
    expect(lease.held).toBe(true);
    expect(lost).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(lease.held).toBe(false);
    expect(lost).toEqual(['no renewal accepted for 3500 ms (the lease lives 5000 ms)']);
  });
});

describe('HolderElection (the event connection lease, taken over by revision)', () => {
  /** Elections of one key, each on its own NATS connection, with what happened to each and when. */
  async function elections(names: readonly string[], wrap: (kv: KV, name: string) => KV = (kv) => kv) {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const happened: { name: string; what: 'held' | 'lost'; at: number; why?: string }[] = [];
    const made = new Map<string, { election: HolderElection; close: () => Promise<void> }>();
    for (const name of names) {
      const nc = await connect({ servers: nats.url });
      cleanups.push(() => nc.close().catch(() => {}));
      const kv = await new Kvm(nc).create('test-holder', { history: 1, ttl: 5_000 });
      const election = new HolderElection({
        kv: wrap(kv, name),
        key: 'events.x.y',
        me: name,
        renewMs: 200,
        takeoverMs: 800,
        held: () => happened.push({ name, what: 'held', at: Date.now() }),
        lost: (why) => happened.push({ name, what: 'lost', at: Date.now(), why }),
        logger: pino({ level: 'silent' }),
      });
      cleanups.push(() => election.stop().catch(() => {}));
      made.set(name, { election, close: () => nc.close() });
    }
    const holders = () => [...made].filter(([, m]) => m.election.holding).map(([name]) => name);
    return { made, happened, holders };
  }

  it('one holder; when it dies, exactly one of three standbys takes the lease, within the takeover time; a live holder is never taken over', async () => {
    const { made, happened, holders } = await elections(['a', 'b', 'c', 'd']);
    made.get('a')!.election.start();
    await until('a to hold the lease', () => holders().join() === 'a');
    for (const name of ['b', 'c', 'd']) made.get(name)!.election.start();
    // Renewing every 200 ms, a holder is never taken over (2 s: 10 takeover times' worth of reads).
    await new Promise((r) => setTimeout(r, 2_000));
    expect(holders()).toEqual(['a']);
    expect(happened.map((h) => `${h.name} ${h.what}`)).toEqual(['a held']);
    // a's process dies: its connection closes, it renews no more (its own deadline fires too).
    const diedAt = Date.now();
    await made.get('a')!.close();
    await until('a standby to hold the lease', () => holders().some((h) => h !== 'a'));
    const taken = happened.find((h) => h.what === 'held' && h.name !== 'a')!;
    console.log(`HolderElection: holder gone -> lease taken by a standby after ${taken.at - diedAt} ms`);
    // Settled: one holder, one take.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(holders().filter((h) => h !== 'a')).toEqual([taken.name]);
    expect(happened.filter((h) => h.what === 'held' && h.name !== 'a')).toHaveLength(1);
  }, 30_000);

  it('a holder whose renewals hang gives the lease up before a standby takes it', async () => {
    let hang = false;
    const { made, happened, holders } = await elections(['a', 'b'], (kv, name) =>
      name !== 'a'
        ? kv
        : new Proxy(kv, {
            get(target, property) {
              if (property === 'update' && hang) return () => new Promise<never>(() => {});
              const value = Reflect.get(target, property) as unknown;
              return typeof value === 'function' ? value.bind(target) : value;
            },
          }),
    );
    made.get('a')!.election.start();
    await until('a to hold the lease', () => holders().join() === 'a');
    made.get('b')!.election.start();
    await new Promise((r) => setTimeout(r, 500));
    hang = true; // a is slow (a paused process, a NATS that does not answer it)
    await until('b to hold the lease', () => holders().includes('b'));
    const lost = happened.find((h) => h.name === 'a' && h.what === 'lost')!;
    const took = happened.find((h) => h.name === 'b' && h.what === 'held')!;
    expect(lost.why).toMatch(/^no renewal accepted for \d+ ms/);
    expect(lost.at).toBeLessThan(took.at);
    expect(holders()).toEqual(['b']);
  }, 30_000);

  it('KvLease.takeOver: refused when the holder renewed since the revision named; of two takers naming the same revision, one wins', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const nc = await connect({ servers: nats.url });
    cleanups.push(() => nc.close());
    const kv = await new Kvm(nc).create('test-takeover', { history: 1, ttl: 5_000 });
    const lease = (name: string) =>
      new KvLease({ kv, key: 'k', value: () => name, ttlMs: 800, marginMs: 200, lost: () => {} });
    const a = lease('a');
    expect(await a.acquire()).toBe(true);
    const seen = a.heldRevision!;
    await a.renew();
    const [b, c] = [lease('b'), lease('c')];
    expect(await b.takeOver(seen)).toBe(false);
    const now = (await kv.get('k'))!.revision;
    const results = await Promise.all([b.takeOver(now), c.takeOver(now)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await kv.get('k'))?.string()).toBe(results[0] ? 'b' : 'c');
    // a finds out at its next renewal.
    await a.renew();
    expect(a.held).toBe(false);
    for (const l of [a, b, c]) await l.release();
  }, 30_000);
});

describe('JetStreamEventFeed: a stream that comes back reset', () => {
  it('goes on with the messages published after the reset, and drops its connection so the calls resync', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const nc = await connect({ servers: nats.url });
    cleanups.push(() => nc.close());
    const jsm = await jetstreamManager(nc);
    const makeStream = () =>
      jsm.streams.add({
        name: EVENTS_STREAM,
        subjects: ['ringflow.events.>'],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
      });
    await makeStream();
    const js = jetstream(nc);
    const feed = await JetStreamEventFeed.start({
      js,
      serverToken: 'vX',
      me: 'w1',
      logger: pino({ level: 'silent' }),
    });
    cleanups.push(() => feed.stop());
    const got: string[] = [];
    let drops = 0;
    const attach = () =>
      feed.connect(undefined, {
        open: () => {},
        message: (frame) => got.push(String((frame as { n?: unknown }).n)),
        pong: () => {},
        rejected: () => {},
        error: () => {},
        closed: (code) => {
          if (code === 1006) {
            drops++;
            attach(); // the runtime reconnects
          }
        },
      });
    attach();
    const publish = (n: number) =>
      js.publish(eventSubject('vX', 'w1', 'c1'), JSON.stringify({ type: 'X', n }));
    for (let n = 1; n <= 5; n++) await publish(n);
    await until('the first five delivered', () => got.length === 5);
    // The stream comes back with fewer messages and its sequence starting again (here: made
    // again, as when NATS lost it): a plain ordered consumer would wait for sequence 6.
    await jsm.streams.delete(EVENTS_STREAM);
    await makeStream();
    for (let n = 6; n <= 7; n++) await publish(n);
    await until('the messages after the reset delivered', () => got.length === 7, 10_000);
    expect(got).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(drops).toBe(1);
  }, 30_000);
});

describe('AssigningRestTransport', () => {
  it('assigns the channels a request makes before sending it, and leaves every other request alone', async () => {
    const assigned: string[][] = [];
    const sent: string[] = [];
    const transport = new AssigningRestTransport(
      {
        send: async (request) => {
          sent.push(`${request.method} ${request.path}`);
          return { status: 200, headers: {} };
        },
      },
      async (ids) => {
        assigned.push([...ids]);
      },
    );
    const request = (
      method: 'GET' | 'POST',
      path: string,
      query: [string, string][] = [],
    ): TransportRequest => ({
      method,
      path,
      query,
    });
    await transport.send(request('POST', '/channels/leg-1'));
    await transport.send(
      request('POST', '/channels', [
        ['endpoint', 'PJSIP/a'],
        ['channelId', 'leg-2'],
        ['otherChannelId', 'leg-3'],
      ]),
    );
    await transport.send(request('POST', '/channels/c1/snoop/snoop-1'));
    await transport.send(request('POST', '/channels/c1/snoop', [['snoopId', 'snoop-2']]));
    await transport.send(request('POST', '/channels/c1/answer'));
    await transport.send(request('POST', '/channels/create', [['endpoint', 'PJSIP/a']]));
    await transport.send(request('GET', '/channels/leg-9'));
    expect(assigned).toEqual([['leg-1'], ['leg-2', 'leg-3'], ['snoop-1'], ['snoop-2']]);
    expect(sent).toHaveLength(7);
  });
});

describe('classic cluster mode: bad input', () => {
  it('ClassicCluster refuses lease settings that cannot work', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const store = await JetStreamCallStore.connect(nats.url);
    cleanups.push(() => store.close());
    const options = {
      connection: store.connection,
      store,
      server: { url: 'http://127.0.0.1:1/ari', username: 'u', password: 'p' },
      app: 'ivr',
      logger: pino({ level: 'silent' }),
    };
    await expect(ClassicCluster.start({ ...options, leaseTtlMs: 1_000, renewMs: 500 })).rejects.toThrow(
      /a lease TTL of at least 3 renewals/,
    );
    await expect(
      ClassicCluster.start({ ...options, server: { ...options.server, url: 'not a url' } }),
    ).rejects.toThrow(/"not a url" is not a URL/);
  }, 30_000);

  it('ringflow run --server --cluster: an unreachable NATS exits 1 with the reason', async () => {
    const { code, stderr } = await runIvr([
      ...['--server', 'http://127.0.0.1:1', '--user', 'u', '--password', 'p'],
      ...['--cluster', 'nats://127.0.0.1:1'],
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/--cluster: JetStreamCallStore: cannot connect to NATS at nats:\/\/127.0.0.1:1/);
  }, 30_000);

  it('ringflow run --cluster-lease and --cluster-holder-takeover: out of bounds, or without --cluster and --server, are usage errors (exit 2)', async () => {
    const server = ['--server', 'http://127.0.0.1:1', '--user', 'u', '--password', 'p'];
    const short = await runIvr([...server, '--cluster', 'nats://127.0.0.1:1', '--cluster-lease', '1s']);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/--cluster-lease: at least 3s/);
    const alone = await runIvr([...server, '--cluster-lease', '20s']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--cluster-lease goes with --cluster and --server/);
    const cluster = [...server, '--cluster', 'nats://127.0.0.1:1'];
    const quick = await runIvr([...cluster, '--cluster-holder-takeover', '300ms']);
    expect(quick.code).toBe(2);
    expect(quick.stderr).toMatch(
      /--cluster-holder-takeover: at least 600ms .* below the lease .* got '300ms'/,
    );
    const pastLease = await runIvr([...cluster, '--cluster-lease', '4s', '--cluster-holder-takeover', '4s']);
    expect(pastLease.code).toBe(2);
    expect(pastLease.stderr).toMatch(/below the lease \(--cluster-lease, 4s\)/);
    const holderAlone = await runIvr([...server, '--cluster-holder-takeover', '2s']);
    expect(holderAlone.code).toBe(2);
    expect(holderAlone.stderr).toMatch(/--cluster-holder-takeover goes with --cluster and --server/);
  }, 30_000);

  it('ringflow run --cluster takes a NATS cluster as a comma list (each address checked, all given to the client); --cluster-replicas is 1, 3 or 5, with --cluster', async () => {
    const server = ['--server', 'http://127.0.0.1:1', '--user', 'u', '--password', 'p'];
    const bad = await runIvr([...server, '--cluster', 'nats://127.0.0.1:1,127.0.0.1:2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--cluster: expected a NATS address .* got '127.0.0.1:2'/);
    const two = await runIvr([...server, '--cluster', 'nats://127.0.0.1:1,nats://127.0.0.1:2']);
    expect(two.code).toBe(1);
    expect(two.stderr).toMatch(/cannot connect to NATS at nats:\/\/127.0.0.1:1, nats:\/\/127.0.0.1:2/);
    const replicas = await runIvr([...server, '--cluster', 'nats://127.0.0.1:1', '--cluster-replicas', '2']);
    expect(replicas.code).toBe(2);
    expect(replicas.stderr).toMatch(/--cluster-replicas: 1, 3 or 5, got '2'/);
    const alone = await runIvr([...server, '--cluster-replicas', '3']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--cluster-replicas goes with --cluster/);
  }, 30_000);
});
