import { VirtualClock } from '@ringflow/client';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { HolderElection } from './HolderElection.ts';
import { FakeKv, processKv } from './test-support/FakeKv.ts';

function cluster(names: readonly string[]) {
  const clock = new VirtualClock();
  const store = new FakeKv();
  const happened: { name: string; what: 'held' | 'lost'; at: number }[] = [];
  const processes = new Map<
    string,
    { election: HolderElection; freeze: () => void; muteWatches: () => void }
  >();
  for (const name of names) {
    const { kv, freeze, muteWatches } = processKv(store);
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
    processes.set(name, { election, freeze, muteWatches });
  }
  const holders = () => [...processes].filter(([, p]) => p.election.holding).map(([name]) => name);
  return { clock, store, happened, processes, holders };
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
    // a's last renewal was sent 0-200 ms before the freeze: it lets go 400-600 ms after it; the
    // standbys were pushed that revision as it was written and take over 800 ms after it.
    expect(lost.at - frozenAt).toBeGreaterThanOrEqual(400);
    expect(lost.at - frozenAt).toBeLessThanOrEqual(600);
    expect(taken[0]!.at - frozenAt).toBeGreaterThanOrEqual(600);
    expect(taken[0]!.at - frozenAt).toBeLessThanOrEqual(800);
    expect(holders().filter((h) => h !== 'a')).toEqual([taken[0]!.name]);
  });

  it('a standby takes over 800 ms after the last pushed revision, without reading the entry meanwhile', async () => {
    const { clock, store, happened, processes } = cluster(['a', 'b']);
    processes.get('a')!.election.start();
    await clock.advance(10);
    let reads = 0;
    const get = store.get.bind(store);
    store.get = (key: string) => {
      reads++;
      return get(key);
    };
    processes.get('b')!.election.start();
    await clock.advance(5_000);
    expect(reads).toBe(1); // b's read at start; then only pushed revisions
    processes.get('a')!.freeze();
    const lastWrite = clock.now() - (clock.now() % 200); // a renews every 200 ms from 0
    await clock.advance(2_000);
    const taken = happened.find((h) => h.name === 'b' && h.what === 'held')!;
    expect(taken.at - lastWrite).toBe(800);
  });

  it('a standby whose watch died silently still takes over (its confirming read)', async () => {
    const { clock, happened, processes } = cluster(['a', 'b']);
    processes.get('a')!.election.start();
    await clock.advance(10);
    processes.get('b')!.election.start();
    await clock.advance(1_000);
    processes.get('b')!.muteWatches();
    await clock.advance(5_000);
    expect(happened.map((h) => `${h.name} ${h.what}`)).toEqual(['a held']);
    const frozenAt = clock.now();
    processes.get('a')!.freeze();
    await clock.advance(3_000);
    const taken = happened.find((h) => h.name === 'b' && h.what === 'held')!;
    expect(taken.at - frozenAt).toBeGreaterThanOrEqual(600);
    expect(taken.at - frozenAt).toBeLessThanOrEqual(1_600);
  });

  it('a stopped holder releases the lease and a standby takes it at once (the delete pushed)', async () => {
    const { clock, happened, processes, holders } = cluster(['a', 'b']);
    processes.get('a')!.election.start();
    await clock.advance(10);
    processes.get('b')!.election.start();
    await clock.advance(1_000);
    const stoppedAt = clock.now();
    await processes.get('a')!.election.stop();
    await clock.advance(100);
    expect(holders()).toEqual(['b']);
    expect(happened.find((h) => h.name === 'b')!.at - stoppedAt).toBe(0);
  });
});
