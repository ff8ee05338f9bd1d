import { JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { TimeoutError } from '@nats-io/transport-node';
import { type RestClient, VirtualClock } from '@ringflow/client';
import type { Application, CallRecord } from '@ringflow/runtime';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
// The runtime's own restore path (claim, then restore), so that what is tested is what runs.
import { StoredCalls, type StoredCallsHost } from '../../../runtime/src/application/StoredCalls.ts';
import { JetStreamCallStore } from '../JetStreamCallStore.ts';
import type { JetStreamEventFeed } from '../JetStreamEventFeed.ts';
import { OrphanTakeover } from '../OrphanTakeover.ts';
import { type BucketRequest, FakeBucket, hold } from '../test-support/FakeBucket.ts';
import { takeoverMachine } from './takeoverMachine.ts';

/**
 * The takeover role racing a claim, in virtual time: workers of one classic cluster, each with
 * its own `JetStreamCallStore` over one in-memory bucket with JetStream's revision rules, its
 * own `OrphanTakeover` and the runtime's `StoredCalls` (claim, then restore). A call "driven" by
 * a worker is one the runtime restored there; a driver whose next write is refused lets the call
 * go (the runtime's `TAKEN_OVER`). The test holds back, reorders or fails each process's requests
 * to the bucket to make the races happen.
 */

const BUCKET = 'ringflow-calls';
const APP = 'ivr';
const ASTERISK = 'pbx-1';

/** A call's record as a worker writes it (what the takeover reads of it is its ids and app). */
function record(callId: string, writtenAt: number): CallRecord {
  return {
    version: 1,
    callId,
    channelId: callId,
    asteriskId: ASTERISK,
    server: 'pbx',
    app: APP,
    direction: 'inbound',
    startedAt: 0,
    writtenAt,
    start: { type: 'StasisStart', channel: { id: callId } },
    owned: [],
    digits: '',
    failures: 0,
    machine: { status: 'active', value: 'asking' },
  } as unknown as CallRecord;
}

/** The store of a process named `owner` over the bucket (the store's constructor is its own). */
function storeOf(bucket: FakeBucket, owner: string): JetStreamCallStore {
  const { kv, jsm } = bucket.view(owner);
  const make = JetStreamCallStore as unknown as new (
    ...args: [KV, JetStreamManager, string, string, unknown, undefined]
  ) => JetStreamCallStore;
  return new make(kv, jsm, BUCKET, owner, {}, undefined);
}

/** What happened in the cluster, in order: `B drives c1`, `A lets c2 go`, … */
type Log = string[];

/**
 * A worker: its store, the calls it drives, its takeover role. `gone` says which workers it
 * believes gone (their leases lapsed).
 */
function worker(name: string, bucket: FakeBucket, clock: VirtualClock, log: Log, gone: Set<string>) {
  const store = storeOf(bucket, name);
  const driving = new Map<string, CallRecord>();
  const warnings: string[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void warnings.push(JSON.parse(line).msg as string) },
  );
  const channels = { list: async () => [...live].map((id) => ({ id })) };
  const host: StoredCallsHost = {
    store,
    apps: [APP],
    router: {
      ownersOf: (_server: string, _kind: string, id: string) => (driving.has(id) ? [{}] : []),
    } as unknown as StoredCallsHost['router'],
    restore: (_link, restored) => {
      driving.set(restored.channelId, restored);
      log.push(`${name} drives ${restored.callId}`);
    },
  };
  const stored = new StoredCalls(host);
  const link = { server: { asteriskId: ASTERISK }, client: { channels }, logger } as unknown as Parameters<
    StoredCalls['restoreOn']
  >[0];
  const app = {
    takeOverCalls: (accept: (r: CallRecord) => boolean) => stored.restoreOn(link, accept),
    call: (channelId: string) => driving.get(channelId),
    detachCalls: () => {
      for (const id of driving.keys()) log.push(`${name} lets ${id} go (detached)`);
      const count = driving.size;
      driving.clear();
      return count;
    },
  } as unknown as Application;
  // What the calls taken over are handed again (keys pressed, events since the claim): which
  // calls, not what (that is the feed's tests' business).
  const replayed: string[] = [];
  const replay = async (channelId: string) => {
    replayed.push(channelId);
    return 0;
  };
  const feed = {
    replayDigits: replay,
    replayTakenOver: replay,
    streamLastSeq: async () => 0,
  } as unknown as JetStreamEventFeed;
  /** The takeover's own look at the server's channels (to tell ended calls) fails while set. */
  const rest = { down: false };
  const options = {
    store,
    feed,
    rest: {
      channels: {
        list: () =>
          rest.down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:8088')) : channels.list(),
      },
    } as unknown as RestClient,
    app: APP,
    isGone: (w: string) => gone.has(w),
    assign: async () => {},
    logger,
    clock,
  };
  const takeover = new OrphanTakeover(options);
  return {
    name,
    store,
    driving,
    warnings,
    takeover,
    replayed,
    rest,
    /** Starts the role (a first search follows). */
    run: () => takeover.run(app),
    /** A call of its own starts here: its first record is written. */
    start: async (callId: string) => {
      await store.save(record(callId, clock.now()));
      driving.set(callId, record(callId, clock.now()));
      log.push(`${name} drives ${callId}`);
    },
    /** Each call driven here takes a step: its record is written; a refused write lets it go. */
    step: async () => {
      for (const [id, r] of [...driving]) {
        try {
          await store.save({ ...r, writtenAt: clock.now() });
        } catch (error) {
          driving.delete(id);
          log.push(`${name} lets ${id} go (${(error as { code?: string }).code})`);
        }
      }
    },
    /** Lost its lease: its calls are let go untouched (`Application.detachCalls`). */
    fence: () => {
      for (const id of driving.keys()) log.push(`${name} lets ${id} go (fenced)`);
      driving.clear();
      takeover.fenced();
    },
  };
}

/** The channels still up on the server. */
const live = new Set<string>();

function cluster(names: readonly string[]) {
  const clock = new VirtualClock();
  const bucket = new FakeBucket(BUCKET);
  const log: Log = [];
  const gone = new Set<string>();
  const workers = Object.fromEntries(names.map((n) => [n, worker(n, bucket, clock, log, gone)]));
  return { clock, bucket, log, gone, workers };
}

/** Every call is driven by exactly one worker, the one the bucket names, and was driven by one only. */
function expectOneDriverEach(
  c: Orphaned,
  callIds: readonly string[],
  { restoredOnce = true }: { restoredOnce?: boolean } = {},
): Map<string, string> {
  const winners = new Map<string, string>();
  for (const callId of callIds) {
    const drivers = Object.values(c.workers)
      .filter((w) => w.driving.has(callId))
      .map((w) => w.name);
    expect(drivers, `drivers of ${callId}`).toHaveLength(1);
    expect(c.bucket.ownerOf(callId), `owner of ${callId} in the bucket`).toBe(drivers[0]);
    // Driven once after C let it go: no second worker ever restored it (then let it go).
    const drove = c.log
      .slice(c.orphanedAt)
      .filter((l) => l.endsWith(` drives ${callId}`))
      .map((l) => l.split(' ')[0]);
    if (restoredOnce) expect(drove, `workers that restored ${callId}`).toEqual([drivers[0]]);
    winners.set(callId, drivers[0]!);
  }
  return winners;
}

const keyOf = (callId: string) =>
  `call.v${Buffer.from(APP).toString('base64url')}.v${Buffer.from(callId).toString('base64url')}`;

afterEach(() => {
  live.clear();
  vi.useRealTimers();
});

/** Three calls driven by C, whose lease then lapses: C is gone for A and B. */
async function cOrphansThreeCalls(names: readonly string[] = ['A', 'B', 'C']) {
  const c = cluster(names);
  for (const id of ['c1', 'c2', 'c3']) {
    live.add(id);
    await c.workers.C!.start(id);
  }
  c.workers.C!.fence(); // C's process froze or died: it drives nothing any more
  c.workers.C!.run(); // its takeover role: fenced, it searches nothing
  c.gone.add('C');
  return { ...c, orphanedAt: c.log.length };
}

type Orphaned = Awaited<ReturnType<typeof cOrphansThreeCalls>>;

describe('two takeovers racing for the same orphaned calls', () => {
  it('both running at once: each call is driven by one worker, the other leaves it untouched', async () => {
    const c = await cOrphansThreeCalls();
    c.workers.A!.run();
    c.workers.B!.run();
    await c.clock.advance(1_000);
    const winners = expectOneDriverEach(c, ['c1', 'c2', 'c3']);
    expect(winners.size).toBe(3);
    // The calls go on: the winners' next writes are accepted, nobody lets a call go.
    await c.workers.A!.step();
    await c.workers.B!.step();
    expect(c.log.filter((l) => l.includes(' go (') && !l.startsWith('C '))).toEqual([]);
    expect(c.workers.A!.takeover.state).toBe('"idle"');
  });

  it('both read each entry before either writes: the bucket accepts one claim, the loser finds the new owner and does not drive the call', async () => {
    const c = await cOrphansThreeCalls();
    const claims = hold(c.bucket, (r) => r.method === 'update' && r.process !== 'C');
    c.workers.A!.run();
    c.workers.B!.run();
    // Each worker claims one call at a time: both claims of c1 are held, then of c2, of c3.
    // A wins c1 and c3, B wins c2 (whose claim reaches the bucket first wins).
    for (const [callId, first, second] of [
      ['c1', 'A', 'B'],
      ['c2', 'B', 'A'],
      ['c3', 'A', 'B'],
    ] as const) {
      await c.clock.advance(10);
      expect(claims.held.map((h) => `${h.request.process} ${h.request.key}`).sort()).toEqual([
        `A ${keyOf(callId)}`,
        `B ${keyOf(callId)}`,
      ]);
      claims.release(first, keyOf(callId));
      await c.clock.advance(10);
      claims.release(second, keyOf(callId));
    }
    claims.stop();
    await c.clock.advance(1_000);
    const winners = expectOneDriverEach(c, ['c1', 'c2', 'c3']);
    expect(Object.fromEntries(winners)).toEqual({ c1: 'A', c2: 'B', c3: 'A' });
    expect(c.workers.B!.warnings.filter((w) => w.startsWith('call claimed by another'))).toHaveLength(2);
    expect(c.workers.A!.warnings.filter((w) => w.startsWith('call claimed by another'))).toHaveLength(1);
    await c.workers.A!.step();
    await c.workers.B!.step();
    expect(c.log.filter((l) => l.includes(' go (') && !l.startsWith('C '))).toEqual([]);
  });

  it("a worker that found C's calls under C, but whose takeover lists them after another took them, leaves them (they are judged again on that listing)", async () => {
    const c = await cOrphansThreeCalls();
    // B's search lists the bucket twice: to find the orphans, then in the runtime's takeover
    // (whose listing its claims start from). The second is held while A takes every call.
    let listings = 0;
    const second = hold(c.bucket, (r) => r.process === 'B' && r.method === 'info' && ++listings === 2);
    c.workers.B!.run();
    await c.clock.advance(10);
    expect(second.held).toHaveLength(1);
    c.workers.A!.run();
    await c.clock.advance(100);
    expect([...c.workers.A!.driving.keys()].sort()).toEqual(['c1', 'c2', 'c3']);
    second.stop();
    await c.clock.advance(100);
    // The runtime's listing names A (alive): B claims nothing from it.
    expect(c.workers.B!.driving.size).toBe(0);
    await c.workers.A!.step();
    expectOneDriverEach(c, ['c1', 'c2', 'c3']);
  });
});

describe('the orphaned worker coming back during a takeover', () => {
  // B's claim refused because C took c1 back re-reads an entry that still names C, the owner it
  // claims from; the entry's claim count (`JetStreamCallStore.claim`) tells C's claim back from
  // C's last writes landing, so B gives the call up instead of claiming it again.
  it('B claims while C takes its own calls back: the bucket accepts one, and no call is driven by both', async () => {
    const c = await cOrphansThreeCalls(['B', 'C']);
    const claims = hold(c.bucket, (r) => r.method === 'update');
    c.workers.B!.run();
    await c.clock.advance(10);
    // C holds its lease again (its old entry expired) and takes back what nobody claimed.
    c.workers.C!.takeover.rejoined();
    await c.clock.advance(10);
    expect(claims.held.map((h) => `${h.request.process} ${h.request.key}`).sort()).toEqual([
      `B ${keyOf('c1')}`,
      `C ${keyOf('c1')}`,
    ]);
    // C's claim of c1 lands first; B's, naming the revision it read under C, is refused.
    claims.release('C', keyOf('c1'));
    await c.clock.advance(10);
    claims.release('B', keyOf('c1'));
    claims.stop();
    await c.clock.advance(1_000);
    // The drivers' next steps: a worker driving a call someone else claimed would be refused here.
    await c.workers.B!.step();
    await c.workers.C!.step();
    const winners = expectOneDriverEach(c, ['c1', 'c2', 'c3']);
    expect(winners.get('c1')).toBe('C');
    expect(c.log.filter((l) => l.includes(' go (') && !l.endsWith('(fenced)'))).toEqual([]);
    expect(c.workers.C!.takeover.state).toBe('"idle"');
  });

  /** B's search under way when B is fenced: its claim of c1 was sent before the fence. */
  async function fencedMidSearch() {
    const c = await cOrphansThreeCalls(['A', 'B', 'C']);
    const claims = hold(c.bucket, (r) => r.method === 'update' && r.process === 'B');
    c.workers.B!.run();
    await c.clock.advance(10);
    expect(claims.held).toHaveLength(1);
    c.workers.B!.fence(); // B's renewals failed: it lets its calls go and takes nothing over
    expect(c.workers.B!.takeover.state).toBe('{"searching":"fenceAfter"}');
    claims.stop(); // the claim B sent before its fence lands
    await c.clock.advance(100);
    expect(c.workers.B!.takeover.state).toBe('"fenced"');
    return c;
  }

  it('B fenced in the middle of its search: once the search ends B drives none of the calls its claims won; A takes them once B is gone', async () => {
    const c = await fencedMidSearch();
    expect(c.workers.B!.driving.size).toBe(0);
    c.gone.add('B'); // B's lease lapsed
    c.workers.A!.run();
    await c.clock.advance(100);
    expect(Object.fromEntries(expectOneDriverEach(c, ['c1', 'c2', 'c3'], { restoredOnce: false }))).toEqual({
      c1: 'A',
      c2: 'A',
      c3: 'A',
    });
  });

  // The runtime judges `accept` again per call, before and after its claim
  // (`StoredCalls.restoreOn`): a search can last seconds (its claims are tried again for up to
  // 15 s while NATS is away), and B fenced meanwhile must not restore what it claims.
  it('B fenced in the middle of its search restores nothing more, not even for a moment', async () => {
    const c = await fencedMidSearch();
    expect(c.log.filter((l) => l.startsWith('B drives'))).toEqual([]);
  });

  it('fenced, C takes nothing over; back, it takes its own unclaimed calls but not those B took', async () => {
    const c = await cOrphansThreeCalls(['B', 'C']);
    await c.clock.advance(100);
    expect(c.workers.C!.takeover.state).toBe('"fenced"');
    expect(c.workers.C!.driving.size).toBe(0);
    // B takes c1 only (c2 and c3's claims fail: NATS refuses B for now).
    c.bucket.rules.push((r) =>
      r.process === 'B' && r.method === 'update' && r.key !== keyOf('c1')
        ? new Error('permissions violation')
        : undefined,
    );
    c.workers.B!.run();
    await c.clock.advance(100);
    c.bucket.rules.length = 0;
    c.gone.delete('C');
    c.workers.C!.takeover.rejoined();
    await c.clock.advance(100);
    expect(Object.fromEntries(expectOneDriverEach(c, ['c1', 'c2', 'c3']))).toEqual({
      c1: 'B',
      c2: 'C',
      c3: 'C',
    });
  });
});

describe('a claim write that fails with a NATS error', () => {
  it('a time-out (NATS unavailable) is tried again; the claim lands once', async () => {
    const c = await cOrphansThreeCalls();
    let timeouts = 2;
    c.bucket.rules.push((r) =>
      r.process === 'A' && r.method === 'update' && r.key === keyOf('c1') && timeouts-- > 0
        ? new TimeoutError()
        : undefined,
    );
    c.workers.A!.run();
    // The store's pauses between tries are on the process's timers (100 ms, 200 ms).
    for (let i = 0; i < 20 && c.workers.A!.driving.size < 3; i++) {
      await c.clock.advance(100);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(timeouts).toBe(-1);
    expect(Object.fromEntries(expectOneDriverEach(c, ['c1', 'c2', 'c3']))).toEqual({
      c1: 'A',
      c2: 'A',
      c3: 'A',
    });
  });

  it('a claim that landed but whose answer was lost: its repeat is refused, and the entry naming this worker is recognised as its own; the rival leaves the call', async () => {
    const c = await cOrphansThreeCalls();
    let lost = 1;
    c.bucket.rules.push((r) =>
      r.process === 'A' && r.method === 'update' && r.key === keyOf('c1') && lost-- > 0
        ? { landed: new TimeoutError() }
        : undefined,
    );
    c.workers.A!.run();
    for (let i = 0; i < 20 && c.workers.A!.driving.size < 3; i++) {
      await c.clock.advance(100);
      await new Promise((r) => setTimeout(r, 50));
    }
    c.workers.B!.run();
    await c.clock.advance(100);
    expect(Object.fromEntries(expectOneDriverEach(c, ['c1', 'c2', 'c3']))).toEqual({
      c1: 'A',
      c2: 'A',
      c3: 'A',
    });
  });

  it('a claim that landed while NATS stayed away longer than the store tries: the call is neither driven nor left to the others; the next search takes it back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] }); // the store's pauses between tries
    const c = await cOrphansThreeCalls();
    let away = false;
    c.bucket.rules.push((r) => {
      if (r.process !== 'A' || r.key !== keyOf('c1')) return undefined;
      if (r.method === 'update' && !away) {
        away = true;
        return { landed: new TimeoutError() };
      }
      return away ? new TimeoutError() : undefined;
    });
    c.workers.A!.run();
    for (
      let i = 0;
      i < 40 && !c.workers.A!.warnings.includes('could not claim the call in the store; left alone');
      i++
    ) {
      await c.clock.advance(10);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(c.workers.A!.warnings).toContain('could not claim the call in the store; left alone');
    await c.clock.advance(100);
    expect(c.bucket.ownerOf('c1')).toBe('A'); // the claim landed
    expect(c.workers.A!.driving.has('c1')).toBe(false);
    c.bucket.rules.length = 0; // NATS is back
    c.workers.B!.run(); // B sees A alive: c1 is A's
    await c.clock.advance(100);
    expect(c.workers.B!.driving.size).toBe(0);
    c.workers.A!.takeover.schedule(); // A's next full scan
    await c.clock.advance(100);
    expect(Object.fromEntries(expectOneDriverEach(c, ['c1', 'c2', 'c3']))).toEqual({
      c1: 'A',
      c2: 'A',
      c3: 'A',
    });
  });

  it('a refusal of another kind (a permission) is surfaced in the log and the call left to the next search, which takes it', async () => {
    const c = await cOrphansThreeCalls(['A', 'C']);
    const refusal = (r: BucketRequest) =>
      r.process === 'A' && r.method === 'update' && r.key === keyOf('c2')
        ? new Error('Permissions Violation for Publish to "$KV.ringflow-calls.>"')
        : undefined;
    c.bucket.rules.push(refusal);
    c.workers.A!.run();
    await c.clock.advance(100);
    expect([...c.workers.A!.driving.keys()].sort()).toEqual(['c1', 'c3']);
    expect(c.workers.A!.warnings).toContain('could not claim the call in the store; left alone');
    expect(c.bucket.ownerOf('c2')).toBe('C');
    c.bucket.rules.length = 0;
    c.workers.A!.takeover.schedule(); // the next full scan
    await c.clock.advance(100);
    expectOneDriverEach(c, ['c1', 'c2', 'c3']);
  });

  it("the records of ended calls cannot be removed (the server's channel list fails): the calls taken are handed their events all the same", async () => {
    const c = await cOrphansThreeCalls(['A', 'C']);
    live.delete('c3'); // c3's caller hung up while nobody drove the call
    c.bucket.rules.push((r) =>
      r.process === 'A' && r.method === 'update' && r.key === keyOf('c3')
        ? new Error('permissions violation')
        : undefined,
    );
    c.workers.A!.rest.down = true;
    c.workers.A!.run();
    await c.clock.advance(100);
    expect([...c.workers.A!.driving.keys()].sort()).toEqual(['c1', 'c2']);
    expect(c.workers.A!.replayed.sort()).toEqual(['c1', 'c2']);
    expect(c.workers.A!.warnings).toContain('took over the calls of workers whose lease lapsed');
    expect(c.workers.A!.warnings.filter((w) => w.startsWith('could not remove the records'))).toHaveLength(1);
    // The next search takes c3 (the runtime restores a call whose caller left: its flow's
    // hang-up path runs once and its record goes).
    c.bucket.rules.length = 0;
    c.workers.A!.rest.down = false;
    c.workers.A!.takeover.schedule();
    await c.clock.advance(100);
    expectOneDriverEach(c, ['c1', 'c2', 'c3']);
  });

  it('listing the bucket fails: the search is logged as failed and the next one takes the calls', async () => {
    const c = await cOrphansThreeCalls(['A', 'C']);
    c.bucket.rules.push((r) =>
      r.process === 'A' && r.method === 'info'
        ? new JetStreamApiError({ err_code: 10059, code: 404, description: 'stream not found' })
        : undefined,
    );
    c.workers.A!.run();
    await c.clock.advance(100);
    expect(c.workers.A!.warnings).toContain(
      'taking over the calls of gone workers failed (tried again at the next search)',
    );
    expect(c.workers.A!.takeover.state).toBe('"idle"');
    c.bucket.rules.length = 0;
    c.workers.A!.takeover.schedule();
    await c.clock.advance(100);
    expectOneDriverEach(c, ['c1', 'c2', 'c3']);
  });
});

describe('the takeover statechart on its own', () => {
  /** The machine with a search the test answers: each call is kept with what it was asked. */
  function machine() {
    const searches: { reclaimOwn: boolean; answer: (searched: boolean) => void; fail: () => void }[] = [];
    const warnings: string[] = [];
    const actor = createActor(
      takeoverMachine({
        search: (reclaimOwn) =>
          new Promise<boolean>((resolve, reject) =>
            searches.push({ reclaimOwn, answer: resolve, fail: () => reject(new Error('NATS away')) }),
          ),
        logger: pino(
          { level: 'warn' },
          { write: (line: string) => void warnings.push(JSON.parse(line).msg) },
        ),
      }),
    ).start();
    const state = () => JSON.stringify(actor.getSnapshot().value);
    const settle = () => new Promise((r) => setImmediate(r));
    return { actor, searches, warnings, state, settle };
  }

  it('one search at a time: searches asked meanwhile make one more, after it', async () => {
    const m = machine();
    m.actor.send({ type: 'search' });
    m.actor.send({ type: 'search' });
    m.actor.send({ type: 'search' });
    expect(m.state()).toBe('{"searching":"again"}');
    expect(m.searches).toHaveLength(1);
    m.searches[0]!.answer(true);
    await m.settle();
    expect(m.searches).toHaveLength(2);
    expect(m.state()).toBe('{"searching":"alone"}');
    m.searches[1]!.answer(true);
    await m.settle();
    expect(m.state()).toBe('"idle"');
  });

  it('fenced: no search until it rejoins; a fence during a search waits for its end; rejoining searches with its own orphans', async () => {
    const m = machine();
    m.actor.send({ type: 'search' });
    m.actor.send({ type: 'fence' });
    expect(m.state()).toBe('{"searching":"fenceAfter"}');
    m.actor.send({ type: 'search' });
    m.searches[0]!.answer(true);
    await m.settle();
    expect(m.state()).toBe('"fenced"');
    m.actor.send({ type: 'search' });
    expect(m.searches).toHaveLength(1);
    m.actor.send({ type: 'rejoin' });
    expect(m.searches.map((s) => s.reclaimOwn)).toEqual([false, true]);
  });

  it('a reclaim asked while nothing could be searched (no application yet), or whose search failed, is kept for the next search', async () => {
    const m = machine();
    m.actor.send({ type: 'rejoin' });
    m.searches[0]!.answer(false); // no application yet
    await m.settle();
    expect(m.state()).toBe('"idle"');
    m.actor.send({ type: 'search' });
    expect(m.searches[1]!.reclaimOwn).toBe(true);
    m.searches[1]!.fail();
    await m.settle();
    expect(m.warnings).toEqual([
      'taking over the calls of gone workers failed (tried again at the next search)',
    ]);
    m.actor.send({ type: 'search' });
    expect(m.searches[2]!.reclaimOwn).toBe(true);
    m.searches[2]!.answer(true);
    await m.settle();
    m.actor.send({ type: 'search' });
    expect(m.searches[3]!.reclaimOwn).toBe(false);
  });

  it('stopped: final, whatever is under way', async () => {
    const m = machine();
    m.actor.send({ type: 'search' });
    m.actor.send({ type: 'stop' });
    expect(m.actor.getSnapshot().status).toBe('done');
    m.searches[0]!.answer(true);
    await m.settle();
    expect(m.searches).toHaveLength(1);
  });
});
