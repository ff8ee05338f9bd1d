import { VirtualClock } from '@ringflow/client';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { HolderElection } from './HolderElection.ts';
import { FakeKv, processKv } from './test-support/FakeKv.ts';

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
