import { VirtualClock } from '@ringflow/client';
import { createActor, createMachine } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { agentDevice, agentFromDevice } from './agentDevice.ts';
import { CallQueue, type QueueNoAgentsEvent, type QueueOfferEvent } from './CallQueue.ts';
import { QueueDirectory } from './QueueDirectory.ts';
import type { QueueExit, QueueSettings, RingStrategy } from './QueueState.ts';

const AGENTS = ['PJSIP/alice', 'PJSIP/bob', 'PJSIP/carol'];

function settings(strategy: RingStrategy, extra: Partial<QueueSettings> = {}): QueueSettings {
  return { agents: AGENTS, strategy, ringTimeoutMs: 15_000, wrapUpMs: 10_000, retryMs: 5_000, ...extra };
}

/** A queue on a virtual clock, with what each caller was told and what left it. */
function queueWith(strategy: RingStrategy, extra: Partial<QueueSettings> = {}) {
  const clock = new VirtualClock(0);
  const told: Record<string, (QueueOfferEvent | QueueNoAgentsEvent)[]> = {};
  const left: { reason: QueueExit; waitedMs: number }[] = [];
  const queue = new CallQueue('support', settings(strategy, extra), clock, {
    changed: () => {},
    left: (_q, reason, waitedMs) => left.push({ reason, waitedMs }),
  });
  const join = (callId: string) => {
    told[callId] = [];
    queue.join({ callId, tell: (e) => told[callId]!.push(e) });
  };
  /** The agents last offered to a caller (after the queue's notices were delivered). */
  const offered = async (callId: string) => {
    await Promise.resolve();
    const offers = (told[callId] ?? []).filter(
      (e): e is QueueOfferEvent => e.type === 'ringflow.queue.offer',
    );
    return offers.at(-1)?.agents ?? [];
  };
  return { clock, queue, told, left, join, offered };
}

describe('CallQueue', () => {
  it("is made and changed from inside a call machine's action without XState warnings", async () => {
    // Steps create and join queues from their own actions; XState's development build warns
    // (on the user's console) about actions created while another machine's action runs.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const offers: string[][] = [];
      const caller = createActor(
        createMachine({
          entry: () => {
            const queue = new CallQueue('support', settings('ringAll'), new VirtualClock(0));
            queue.join({
              callId: 'c1',
              tell: (e) => offers.push(e.type === 'ringflow.queue.offer' ? [...e.agents] : []),
            });
            queue.unanswered('c1');
          },
        }),
      );
      caller.start();
      await Promise.resolve();
      expect(offers).toEqual([AGENTS]);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('ring all: the head caller is offered every free agent, the next waits at position 1', async () => {
    const q = queueWith('ringAll');
    q.join('c1');
    q.join('c2');
    expect(await q.offered('c1')).toEqual(AGENTS);
    expect(await q.offered('c2')).toEqual([]);
    expect(q.queue.positionOf('c1')).toBe(1);
    expect(q.queue.positionOf('c2')).toBe(2);
    await q.clock.advance(12_000);
    q.queue.answered('c1', 'PJSIP/bob');
    // The others were freed at once: the second caller is offered them.
    expect(await q.offered('c2')).toEqual(['PJSIP/alice', 'PJSIP/carol']);
    expect(q.queue.positionOf('c2')).toBe(1);
    expect(q.queue.state.agents.find((a) => a.endpoint === 'PJSIP/bob')).toMatchObject({
      activity: 'talking',
      callId: 'c1',
      callsTaken: 1,
    });
    expect(q.left).toEqual([{ reason: 'answered', waitedMs: 12_000 }]);
    expect(q.queue.expectedWaitMs()).toBe(12_000);
  });

  it('round robin: each offer goes to the next agent after the one rung last', async () => {
    const q = queueWith('roundRobin');
    q.join('c1');
    expect(await q.offered('c1')).toEqual(['PJSIP/alice']);
    q.join('c2');
    expect(await q.offered('c2')).toEqual(['PJSIP/bob']);
    q.queue.unanswered('c1'); // alice missed it and rests for retryMs
    expect(await q.offered('c1')).toEqual(['PJSIP/carol']);
    q.join('c3');
    // alice rests, bob and carol ring: c3 waits until alice's rest ends.
    expect(await q.offered('c3')).toEqual([]);
    await q.clock.advance(5_000);
    expect(await q.offered('c3')).toEqual(['PJSIP/alice']);
  });

  it('longest idle: the agent whose last call ended longest ago rings first', async () => {
    const q = queueWith('longestIdle', { wrapUpMs: 0 });
    for (const [caller, agent] of [
      ['c1', 'PJSIP/alice'],
      ['c2', 'PJSIP/bob'],
      ['c3', 'PJSIP/carol'],
    ] as const) {
      q.join(caller);
      q.queue.answered(caller, agent);
    }
    await q.clock.advance(1000);
    q.queue.agentFree('PJSIP/carol');
    await q.clock.advance(1000);
    q.queue.agentFree('PJSIP/alice');
    await q.clock.advance(1000);
    q.queue.agentFree('PJSIP/bob');
    q.join('c4');
    expect(await q.offered('c4')).toEqual(['PJSIP/carol']);
  });

  it('agents who miss offers take turns: among equals, the one offered least recently rings', async () => {
    const q = queueWith('longestIdle', { retryMs: 1_000 });
    const rung: string[] = [];
    q.join('c1');
    for (let i = 0; i < 6; i++) {
      rung.push(...(await q.offered('c1')));
      q.queue.unanswered('c1');
      await q.clock.advance(1_000);
    }
    expect(rung).toEqual([...AGENTS, ...AGENTS]);
  });

  it('fewest calls: the agent who took fewest calls rings first', async () => {
    const q = queueWith('fewestCalls', { wrapUpMs: 0 });
    q.join('c1');
    expect(await q.offered('c1')).toEqual(['PJSIP/alice']);
    q.queue.answered('c1', 'PJSIP/alice');
    q.queue.agentFree('PJSIP/alice');
    q.join('c2');
    expect(await q.offered('c2')).toEqual(['PJSIP/bob']);
  });

  it('wrap-up: an agent whose call ended is offered again only after wrapUpMs', async () => {
    const q = queueWith('ringAll', { agents: ['PJSIP/alice'] });
    q.join('c1');
    q.queue.answered('c1', 'PJSIP/alice');
    q.join('c2');
    await q.clock.advance(60_000);
    q.queue.agentFree('PJSIP/alice');
    expect(await q.offered('c2')).toEqual([]);
    await q.clock.advance(9_999);
    expect(await q.offered('c2')).toEqual([]);
    await q.clock.advance(1);
    expect(await q.offered('c2')).toEqual(['PJSIP/alice']);
  });

  it('a caller who leaves frees the agents ringing for it and is counted as it left', async () => {
    const q = queueWith('ringAll');
    q.join('c1');
    q.join('c2');
    await q.clock.advance(30_000);
    q.queue.leave('c1', 'abandoned');
    expect(await q.offered('c2')).toEqual(AGENTS);
    await q.clock.advance(30_000);
    q.queue.leave('c2', 'timeout');
    expect(q.left).toEqual([
      { reason: 'abandoned', waitedMs: 30_000 },
      { reason: 'timeout', waitedMs: 60_000 },
    ]);
    expect(q.queue.state.callers).toEqual([]);
    expect(q.queue.state.agents.every((a) => a.activity === 'idle')).toBe(true);
    expect(q.queue.state.stats.left).toMatchObject({ abandoned: 1, timeout: 1 });
  });

  it('no agents: a caller joining a queue nobody is logged in to is told at once', async () => {
    const q = queueWith('ringAll', { agents: [] });
    q.join('c1');
    await Promise.resolve();
    expect(q.told.c1).toEqual([{ type: 'ringflow.queue.noAgents', queue: 'support' }]);
    expect(q.queue.positionOf('c1')).toBe(0);
    expect(q.left).toEqual([{ reason: 'noAgents', waitedMs: 0 }]);
  });

  it('agents log in, pause and log out; the last one out sends the waiting callers away', async () => {
    const q = queueWith('ringAll', { agents: ['PJSIP/alice'] });
    q.queue.agent('PJSIP/alice', 'pause');
    q.join('c1');
    expect(await q.offered('c1')).toEqual([]);
    q.queue.agent('PJSIP/dave', 'login');
    expect(await q.offered('c1')).toEqual(['PJSIP/dave']);
    q.queue.unanswered('c1');
    q.queue.agent('PJSIP/alice', 'unpause');
    expect(await q.offered('c1')).toEqual(['PJSIP/alice']);
    q.queue.agent('PJSIP/alice', 'logout');
    q.queue.agent('PJSIP/dave', 'logout');
    await Promise.resolve();
    expect(q.told.c1?.at(-1)).toEqual({ type: 'ringflow.queue.noAgents', queue: 'support' });
    expect(q.queue.state.callers).toEqual([]);
    expect(q.queue.state.agents.every((a) => a.activity === 'idle' && !a.loggedIn)).toBe(true);
  });
});

describe('agents whose status is a device state', () => {
  it('the device of an agent, and the status read back from it', () => {
    expect(agentDevice('support', 'PJSIP/alice')).toBe('Stasis:queue-support-PJSIP-alice');
    expect(agentFromDevice('support', { name: 'Stasis:queue-support-PJSIP-alice', state: 'ONHOLD' })).toEqual(
      {
        agent: 'PJSIP/alice',
        actions: ['login', 'pause'],
      },
    );
    expect(
      agentFromDevice('support', { name: 'Stasis:queue-support-SIP-bob-2', state: 'UNAVAILABLE' }),
    ).toEqual({
      agent: 'SIP/bob-2',
      actions: ['logout'],
    });
    expect(
      agentFromDevice('support', { name: 'Stasis:queue-sales-PJSIP-alice', state: 'ONHOLD' }),
    ).toBeUndefined();
    expect(
      agentFromDevice('support', { name: 'Stasis:queue-support-PJSIP-alice', state: 'INUSE' }),
    ).toBeUndefined();
  });

  it('a queue opened again reads its agents back: paused and logged out agents are not rung', async () => {
    const clock = new VirtualClock(0);
    const directory = new QueueDirectory({ clock, logger: pino({ level: 'silent' }) });
    const watched: string[] = [];
    const queue = directory.get('pbx', 'support', settings('ringAll'), {
      list: async () => [
        { name: 'Stasis:queue-support-PJSIP-alice', state: 'ONHOLD' },
        { name: 'Stasis:queue-support-PJSIP-bob', state: 'UNAVAILABLE' },
        { name: 'Stasis:queue-support-PJSIP-dave', state: 'NOT_INUSE' },
        { name: 'Stasis:queue-other-PJSIP-carol', state: 'UNAVAILABLE' },
      ],
      watch: async (device) => {
        watched.push(device);
      },
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(queue.state.agents.map((a) => [a.endpoint, a.loggedIn, a.paused])).toEqual([
      ['PJSIP/alice', true, true],
      ['PJSIP/bob', false, false],
      ['PJSIP/carol', true, false],
      ['PJSIP/dave', true, false],
    ]);
    const told: unknown[] = [];
    queue.join({ callId: 'c1', tell: (e) => told.push(e) });
    await Promise.resolve();
    expect(told).toEqual([
      { type: 'ringflow.queue.offer', queue: 'support', agents: ['PJSIP/carol', 'PJSIP/dave'] },
    ]);
    // Each agent's device is followed: a change made elsewhere (another process, a supervisor's
    // tool) reaches the queue as a DeviceStateChanged.
    expect(watched.sort()).toEqual(
      ['alice', 'bob', 'carol', 'dave'].map((a) => `Stasis:queue-support-PJSIP-${a}`),
    );
    directory.deviceChanged('pbx', { name: 'Stasis:queue-support-PJSIP-carol', state: 'ONHOLD' });
    directory.deviceChanged('other-server', { name: 'Stasis:queue-support-PJSIP-dave', state: 'ONHOLD' });
    expect(queue.state.agents.filter((a) => a.paused).map((a) => a.endpoint)).toEqual([
      'PJSIP/alice',
      'PJSIP/carol',
    ]);
    // The same name on the same server is the same queue; without settings an unknown queue is refused.
    expect(directory.get('pbx', 'support')).toBe(queue);
    expect(() => directory.get('pbx', 'sales')).toThrow('queue "sales" is not configured');
  });
});
