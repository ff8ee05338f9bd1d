import { systemClock } from '@ringflow/client';
import {
  type CallHandle,
  type CallInput,
  callActors,
  createApplication,
  type GapReport,
} from '@ringflow/runtime';
import { FakeAriServer } from '@ringflow/runtime/testing';
import { pino } from 'pino';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { loopbackWire } from './loopbackWire.ts';

/** Answers and waits for the caller to hang up. */
const waitForHangup = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'talking' },
    },
    talking: {},
  },
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

describe('over the wire: the server drops the event socket during calls', () => {
  it('reconnects, ends the sessions whose channels went away, keeps the others, reports the gap', async () => {
    const server = new FakeAriServer(systemClock);
    const wire = await loopbackWire(server);
    const reports: GapReport[] = [];
    const app = createApplication({
      servers: [
        {
          name: 'pbx',
          url: wire.url,
          username: 'ringflow',
          password: 'secret',
          eventStream: { backoff: { initialDelayMs: 20, maxDelayMs: 50 }, pingIntervalMs: 0 },
        },
      ],
      apps: ['wire'],
      call: waitForHangup,
      logger: pino({ level: 'silent' }),
      onGap: (report) => reports.push(report),
    });
    try {
      await app.start();
      server.placeCall('stays', 'wire');
      server.placeCall('leaves', 'wire');
      await until(() => app.counters().activeSessions === 2 && server.channels.get('leaves')?.state === 'Up');
      const gap = firstValueFrom(app.gaps$);
      wire.dropEventSockets();
      // While the socket is down, one caller hangs up: its StasisEnd is lost with the socket.
      await until(() => wire.eventSockets === 0);
      server.hangupCall('leaves');
      const report = await gap;
      expect(report).toMatchObject({
        server: 'pbx',
        asteriskId: server.asteriskId,
        endedCalls: ['leaves'],
        keptCalls: ['stays'],
      });
      expect(report.gap.durationMs).toBeGreaterThanOrEqual(0);
      expect(reports).toHaveLength(1);
      expect(app.activeCalls().map((s) => s.channelId)).toEqual(['stays']);
      expect(app.metrics.summary()).toMatchObject({ reconnects: 1, gaps: 1 });
      expect(app.metrics.callsEnded.get({ outcome: 'reconciled' })).toBe(1);
      // The kept call still gets its events.
      server.hangupCall('stays');
      await until(() => app.counters().activeSessions === 0);
      expect(app.metrics.callsEnded.get({ outcome: 'completed' })).toBe(1);
      expect(app.counters()).toMatchObject({ subscriptions: 0, timers: 0, pendingRequests: 0, routes: 0 });
      expect(app.metrics.toPrometheus()).toContain('ringflow_reconnects_total{server="pbx"} 1');
    } finally {
      await app.stop();
      await wire.close();
    }
  });
});
