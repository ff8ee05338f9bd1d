import { systemClock } from '@ringflow/client';
import { JetStreamQueueRevisions } from '@ringflow/cluster';
import { CallQueue, type QueueOfferEvent, type QueueSettings, SharedQueueStore } from '@ringflow/runtime';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './classicProcesses.ts';
import { startNatsServer, type TestNatsServer } from './startNatsServer.ts';

const SETTINGS: QueueSettings = {
  agents: ['PJSIP/201'],
  strategy: 'longestIdle',
  ringTimeoutMs: 15_000,
  wrapUpMs: 10_000,
  retryMs: 5_000,
};

let nats: TestNatsServer;
const connections: NatsConnection[] = [];
const queues: CallQueue[] = [];
beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  for (const q of queues) q.stop();
  for (const c of connections) await c.close();
  await nats?.stop();
});

let buckets = 0;
/** `processes` queues `support`, each on its own NATS connection, on one bucket of their own. */
async function processesOn(processes: number) {
  const bucket = `queues-${++buckets}`;
  const offers: Record<string, string[][]> = {};
  const open = async () => {
    const connection = await connect({ servers: nats.url });
    connections.push(connection);
    const revisions = await JetStreamQueueRevisions.open({ connection, bucket });
    const store = new SharedQueueStore({ revisions, clock: systemClock, logger: pino({ level: 'silent' }) });
    const queue = new CallQueue('support', SETTINGS, systemClock, undefined, { store, server: 'pbx' });
    queues.push(queue);
    return queue;
  };
  const all: CallQueue[] = [];
  for (let i = 0; i < processes; i++) all.push(await open());
  const join = (queue: CallQueue, callId: string, joinedAt?: number) => {
    offers[callId] ??= [];
    queue.join(
      {
        callId,
        tell: (e) => {
          if (e.type === 'ringflow.queue.offer') offers[callId]!.push([...(e as QueueOfferEvent).agents]);
        },
      },
      joinedAt === undefined ? undefined : { joinedAt, ringing: [] },
    );
  };
  return { queues: all, offers, join, open };
}

describe('JetStreamQueueRevisions: one queue in NATS for several processes', () => {
  it('callers joining on three processes at once wait in one order; only the head is offered the agent', async () => {
    const c = await processesOn(3);
    // The agent paused while they join: the joins reach the store in whatever order the three
    // processes' writes land, and an idle agent would be offered to whoever landed first.
    c.queues[2]!.agent('PJSIP/201', 'pause');
    await until('every process to see the agent paused', () =>
      c.queues.every((q) => q.state.agents[0]?.paused === true),
    );
    const t = Date.now();
    c.join(c.queues[0]!, 'a', t);
    c.join(c.queues[1]!, 'b', t + 1);
    c.join(c.queues[2]!, 'c', t + 2);
    await until('every process to see the three callers', () =>
      c.queues.every((q) => q.state.callers.length === 3),
    );
    for (const q of c.queues) expect(q.state.callers.map((x) => x.callId)).toEqual(['a', 'b', 'c']);
    // Resumed on another process than the head's: its offer reaches the head's process.
    c.queues[1]!.agent('PJSIP/201', 'unpause');
    await until('the head to be offered the agent', () => c.offers.a!.length === 1);
    expect(c.offers).toEqual({ a: [['PJSIP/201']], b: [], c: [] });
    // The head's process answers: the next caller, on another process, is second to none now.
    c.queues[0]!.answered('a', 'PJSIP/201');
    await until('the others to see the agent talking', () =>
      c.queues.every((q) => q.state.agents[0]?.activity === 'talking' && q.positionOf('b') === 1),
    );
    expect(c.offers.b).toEqual([]);
  });

  it('a process opening the queue later finds it as the others left it, and tells its callers nothing old', async () => {
    const c = await processesOn(1);
    c.join(c.queues[0]!, 'x');
    await until('the caller to be offered', () => c.offers.x!.length === 1);
    const late = await c.open();
    await until('the late process to see the caller', () => late.positionOf('x') === 1);
    expect(late.state.agents[0]).toMatchObject({ activity: 'ringing', callId: 'x' });
    c.join(late, 'y');
    await until('the late caller to be second', () => c.queues[0]!.positionOf('y') === 2);
    expect(c.offers).toEqual({ x: [['PJSIP/201']], y: [] });
  });
});
