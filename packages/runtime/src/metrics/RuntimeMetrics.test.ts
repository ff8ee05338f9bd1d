import { VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { CallQueue } from '../queue/CallQueue.ts';
import { RuntimeMetrics } from './RuntimeMetrics.ts';

describe('RuntimeMetrics', () => {
  it('counts calls, events, REST errors and reconnects', async () => {
    const clock = new VirtualClock();
    const m = new RuntimeMetrics(clock);
    m.callStarted('inbound');
    m.callStarted('outbound');
    m.callEnded({ app: 'ivr', status: 'hungUp', by: 'caller' });
    for (let i = 0; i < 20; i++) m.eventReceived('pbx1');
    m.restRequestDone('channels.answer', 2, 204);
    m.restRequestDone('channels.answer', 3, 404);
    m.restRequestDone('channels.play', 1, 0);
    m.reconnects.inc({ server: 'pbx1' });
    m.callsAdopted.inc({ server: 'pbx1' });
    m.cleanupRetries.inc({ server: 'pbx1' }, 2);
    expect(m.summary()).toEqual({
      activeCalls: 1,
      callsStarted: 2,
      callsEnded: 1,
      events: 20,
      eventsPerSecond: 2,
      eventsRecovered: 0,
      restRequests: 3,
      restErrorsByStatus: { '404': 1, '0': 1 },
      reconnects: 1,
      gaps: 0,
      callsAdopted: 1,
      cleanupRetries: 2,
      cleanupsFailed: 0,
    });
    const text = m.toPrometheus();
    expect(text).toContain('ringflow_active_calls 1');
    expect(text).toContain('ringflow_rest_errors_total{operation="channels.answer",status="404"} 1');
    expect(text).toContain('ringflow_events_per_second 2');
    expect(text).toContain('ringflow_calls_adopted_total{server="pbx1"} 1');
    await clock.advance(11_000);
    expect(m.eventsPerSecond()).toBe(0);
  });
});

describe('RuntimeMetrics: queue agents', () => {
  it('an agent wrapping up counts as available once the wrap-up is over, with no change of the queue', async () => {
    const clock = new VirtualClock(0);
    const metrics = new RuntimeMetrics(clock);
    const queue = new CallQueue(
      'support',
      { agents: ['PJSIP/201'], strategy: 'ringAll', ringTimeoutMs: 15_000, wrapUpMs: 10_000, retryMs: 5_000 },
      clock,
      metrics.queueObserver,
    );
    queue.join({ callId: 'c1', tell: () => {} });
    await Promise.resolve();
    queue.answered('c1', 'PJSIP/201');
    queue.agentFree('PJSIP/201');
    await Promise.resolve();
    const agents = (state: string) => {
      metrics.toJSON();
      return metrics.queueAgents.get({ queue: 'support', state });
    };
    expect(agents('wrapUp')).toBe(1);
    await clock.advance(10_001);
    expect(agents('wrapUp')).toBe(0);
    expect(agents('available')).toBe(1);
    expect(metrics.toPrometheus()).toContain('ringflow_queue_agents{queue="support",state="available"} 1');
  });
});
