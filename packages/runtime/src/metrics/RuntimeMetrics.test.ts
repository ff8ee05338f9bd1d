import { VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { RuntimeMetrics } from './RuntimeMetrics.ts';

describe('RuntimeMetrics', () => {
  it('counts calls, events, REST errors and reconnects', async () => {
    const clock = new VirtualClock();
    const m = new RuntimeMetrics(clock);
    m.callStarted('inbound');
    m.callStarted('outbound');
    m.callEnded('completed');
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
