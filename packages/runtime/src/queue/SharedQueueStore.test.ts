import { VirtualClock } from '@ringflow/client';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { CallQueue, type QueueNoAgentsEvent, type QueueOfferEvent } from './CallQueue.ts';
import { MemoryQueueRevisions } from './MemoryQueueRevisions.ts';
import type { QueueExit, QueueSettings } from './QueueState.ts';
import { SharedQueueStore } from './SharedQueueStore.ts';

const SETTINGS: QueueSettings = {
  agents: ['PJSIP/201'],
  strategy: 'longestIdle',
  ringTimeoutMs: 15_000,
  wrapUpMs: 10_000,
  retryMs: 5_000,
};

/** Lets the store's answers and watches (later turns) arrive. */
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

/**
 * Processes of a cluster in one test: each its own `CallQueue` of queue `support` on one shared
 * store, on one virtual clock; what each process's callers were told, and what each counted.
 */
function cluster(processes: number, settings: QueueSettings = SETTINGS) {
  const clock = new VirtualClock(0);
  const revisions = new MemoryQueueRevisions();
  const told: Record<string, (QueueOfferEvent | QueueNoAgentsEvent)[]> = {};
  const left: { process: number; reason: QueueExit }[] = [];
  const open = (process: number) => {
    const store = new SharedQueueStore({ revisions, clock, logger: pino({ level: 'silent' }) });
    return new CallQueue(
      'support',
      settings,
      clock,
      { changed: () => {}, left: (_q, reason) => left.push({ process, reason }) },
      { store, server: 'pbx' },
    );
  };
  const queues = Array.from({ length: processes }, (_, i) => open(i));
  const join = (process: number, callId: string, restored?: Parameters<CallQueue['join']>[1]) => {
    told[callId] ??= [];
    queues[process]!.join({ callId, tell: (e) => told[callId]!.push(e) }, restored);
  };
  const offers = (callId: string) =>
    (told[callId] ?? []).filter((e): e is QueueOfferEvent => e.type === 'ringflow.queue.offer');
  return { clock, revisions, queues, told, left, join, offers, open };
}

describe('SharedQueueStore: one queue for the processes of a cluster', () => {
  it('callers of two processes wait in arrival order; the agent is offered one caller at a time', async () => {
    const c = cluster(2);
    c.join(0, 'c1');
    await c.clock.advance(1_000);
    c.join(1, 'c2');
    await settle();
    expect(c.offers('c1').map((o) => o.agents)).toEqual([['PJSIP/201']]);
    expect(c.offers('c2')).toEqual([]);
    // Both processes see both callers, in the order they arrived.
    for (const q of c.queues) {
      expect(q.positionOf('c1')).toBe(1);
      expect(q.positionOf('c2')).toBe(2);
    }
    await c.clock.advance(3_000);
    c.queues[0]!.answered('c1', 'PJSIP/201');
    await settle();
    expect(c.queues[1]!.positionOf('c2')).toBe(1);
    expect(c.queues[1]!.state.agents[0]).toMatchObject({ activity: 'talking', callId: 'c1' });
    expect(c.offers('c2')).toEqual([]);
    // The agent hangs up: after its wrap-up, the caller on the other process is offered it.
    await c.clock.advance(20_000);
    c.queues[0]!.agentFree('PJSIP/201');
    await settle();
    await c.clock.advance(9_000);
    await settle();
    expect(c.offers('c2')).toEqual([]);
    await c.clock.advance(1_000);
    await settle();
    expect(c.offers('c2').map((o) => o.agents)).toEqual([['PJSIP/201']]);
    // Each process counted its own caller's leaving, once.
    expect(c.left).toEqual([{ process: 0, reason: 'answered' }]);
  });

  it('changes made at once by several processes all land (a refused write is made again on the newer state)', async () => {
    const c = cluster(3, { ...SETTINGS, agents: [] });
    c.queues[0]!.agent('PJSIP/201', 'login');
    await settle();
    c.join(0, 'a');
    c.join(1, 'b');
    c.join(2, 'c');
    await settle();
    for (const q of c.queues) expect(q.state.callers.map((x) => x.callId)).toEqual(['a', 'b', 'c']);
    expect(c.offers('a')).toHaveLength(1);
    expect([...c.offers('b'), ...c.offers('c')]).toEqual([]);
  });

  it('a caller whose process died keeps its place; taken over elsewhere, it is offered the agent its old process did not ring', async () => {
    const c = cluster(3);
    c.join(0, 'c1');
    await c.clock.advance(1_000);
    c.join(1, 'c2');
    await settle();
    // Process 0 dies with the offer made to c1 unrung (no record of the dial yet).
    c.queues[0]!.stop();
    await c.clock.advance(2_000);
    c.join(2, 'c1', { joinedAt: 0, ringing: [] });
    await settle();
    expect(c.offers('c1').map((o) => o.agents)).toEqual([['PJSIP/201'], ['PJSIP/201']]);
    for (const q of [c.queues[1]!, c.queues[2]!]) {
      expect(q.positionOf('c1')).toBe(1);
      expect(q.positionOf('c2')).toBe(2);
    }
  });

  it('an offer nobody drives goes stale: its caller is taken out, and joins again at its place when taken over', async () => {
    const c = cluster(2);
    c.join(0, 'c1');
    await c.clock.advance(1_000);
    c.join(1, 'c2');
    await settle();
    c.queues[0]!.stop();
    // Ring timeout (15 s) and grace (15 s) after the offer: c1 is out, c2 is offered the agent.
    await c.clock.advance(28_000);
    await settle();
    expect(c.offers('c2')).toEqual([]);
    await c.clock.advance(2_000);
    await settle();
    expect(c.queues[1]!.positionOf('c1')).toBe(0);
    expect(c.offers('c2').map((o) => o.agents)).toEqual([['PJSIP/201']]);
    // c1's call is taken over later: it is back ahead of c2 (it arrived first).
    c.join(1, 'c1', { joinedAt: 0, ringing: [] });
    await settle();
    expect(c.queues[1]!.positionOf('c1')).toBe(1);
    expect(c.queues[1]!.positionOf('c2')).toBe(2);
  });

  it('a queue opened later by another process starts from the shared state, telling nobody old offers', async () => {
    const c = cluster(1);
    c.join(0, 'c1');
    await settle();
    const late = c.open(1);
    await settle();
    expect(late.positionOf('c1')).toBe(1);
    expect(late.state.agents[0]).toMatchObject({ activity: 'ringing', callId: 'c1' });
    expect(c.offers('c1')).toHaveLength(1);
  });

  it('a change that changes nothing is not written', async () => {
    const c = cluster(2);
    c.join(0, 'c1');
    await settle();
    const writes = c.revisions.writes;
    // Both processes apply the same device state (an agent logged in already).
    c.queues[0]!.agent('PJSIP/201', 'login');
    c.queues[1]!.agent('PJSIP/201', 'login');
    await settle();
    expect(c.revisions.writes).toBe(writes);
  });
});
