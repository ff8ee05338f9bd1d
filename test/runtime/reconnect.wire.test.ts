import { systemClock } from '@ringflow/client';
import { createApplication, type GapReport } from '@ringflow/runtime';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { pino } from 'pino';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { EventSocketProxy } from './EventSocketProxy.ts';
import { waitForHangup } from './harness.ts';
import { until } from '@ringflow/testing';

describe('over the wire: the network drops the event socket during calls', () => {
  it('reconnects, ends the sessions whose channels went away, keeps the others, reports the gap', async () => {
    const simulator = createSimulator({ clock: systemClock });
    const wire = await startWireServer(simulator, {
      users: [{ username: 'ringflow', password: 'secret' }],
      clock: systemClock,
    });
    const proxy = await EventSocketProxy.start(wire.port);
    const reports: GapReport[] = [];
    const app = createApplication({
      servers: [
        {
          name: 'pbx',
          url: proxy.url,
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
      simulator.driver.placeCall({ app: 'wire', channelId: 'stays' });
      simulator.driver.placeCall({ app: 'wire', channelId: 'leaves' });
      const answered = async () => {
        const channels = await app.client().channels.list();
        return channels.filter((c) => c.state === 'Up').length === 2;
      };
      await until(
        'both calls answered',
        async () => app.counters().activeSessions === 2 && (await answered()),
      );
      const gap = firstValueFrom(app.gaps$);
      // The network under the event socket fails and stays down while one caller hangs up: the
      // server has nowhere to send that call's StasisEnd, so the application never hears it.
      proxy.down();
      await until('the event socket gone', () => wire.eventConnections === 0);
      simulator.driver.hangup('leaves');
      await until('the leaving caller gone', () => !simulator.hasChannel('leaves'));
      await until('a reconnect refused', () => proxy.refused > 0);
      expect(
        app
          .activeCalls()
          .map((s) => s.channelId)
          .sort(),
      ).toEqual(['leaves', 'stays']);
      proxy.restore();
      const report = await gap;
      expect(report).toMatchObject({
        server: 'pbx',
        asteriskId: simulator.asteriskId,
        endedCalls: ['leaves'],
        keptCalls: ['stays'],
        endedBridges: [],
      });
      expect(report.gap.attempts).toBeGreaterThan(1);
      expect(reports).toHaveLength(1);
      // The call that left was told StasisEnd (recovered): its hang-up path runs, then it ends.
      await until('the call that left to end', () => app.activeCalls().length === 1);
      expect(app.activeCalls().map((s) => s.channelId)).toEqual(['stays']);
      expect(app.metrics.summary()).toMatchObject({ reconnects: 1, gaps: 1 });
      expect(app.metrics.callsEnded.sum({ status: 'hungUp', by: 'server' })).toBe(1);
      // The kept call still gets its events over the new socket.
      simulator.driver.hangup('stays');
      await until('every call to end', () => app.counters().activeSessions === 0);
      expect(app.metrics.callsEnded.sum({ status: 'hungUp', by: 'caller' })).toBe(1);
      expect(app.counters()).toMatchObject({ subscriptions: 0, timers: 0, pendingRequests: 0, routes: 0 });
      expect(app.metrics.toPrometheus()).toContain('ringflow_reconnects_total{server="pbx"} 1');
    } finally {
      await app.stop();
      await proxy.close();
      await wire.close();
      simulator.close();
    }
  });
});
