import { VirtualClock } from '@ringflow/client';
import { createApplication } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { startWireServer } from '@ringflow/simulator';
import { expectNothingLeft, RELIABILITY_DIALPLAN } from './appOnServer.ts';
import { captureLogs } from './captureLogs.ts';
import { expectOneOutcomeLinePerCall } from './callOutcomes.ts';
import { CuttableProxy } from './CuttableProxy.ts';
import { IVR_CALL_MAX_MS, ivrCallMachine } from './ivrCallMachine.ts';
import { followStasisStarts, scheduleCallers } from './scheduleCallers.ts';
import { randomInt, seededRandom } from './seededRandom.ts';
import { settle, watchUnhandledRejections } from './watchUnhandledRejections.ts';

const unhandled = watchUnhandledRejections();

/** One turn of the real event loop, so socket reads and writes happen between virtual steps. */
const ioTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('faults over the wire: the runtime on the simulator behind real sockets', () => {
  it('50 calls while the network under the event socket and REST connections is cut at 5 seeded moments (seed 31)', async () => {
    const random = seededRandom(31);
    const clock = new VirtualClock();
    const sim = createSimulator({ clock, dialplan: RELIABILITY_DIALPLAN });
    const wire = await startWireServer(sim, { users: [{ username: 'ringflow', password: 'secret' }], clock });
    const proxy = await CuttableProxy.start(wire.port);
    const logs = captureLogs('info');
    const received = new Set<string>();
    const sent = followStasisStarts(sim);
    let n = 0;
    const app = createApplication({
      servers: [
        {
          name: 'pbx',
          url: `http://127.0.0.1:${proxy.port}/ari`,
          username: 'ringflow',
          password: 'secret',
          eventStream: { pingIntervalMs: 0, backoff: { initialDelayMs: 100, maxDelayMs: 1000 }, random },
          // Virtual time runs ahead of loopback replies; a generous timeout keeps faults to the cuts.
          restTimeoutMs: 30_000,
        },
      ],
      apps: ['ivr'],
      call: ivrCallMachine,
      clock,
      logger: logs.logger,
      ids: () => String(++n),
    });
    app.calls$.subscribe((s) => received.add(s.channelId));
    try {
      await app.start();
      const calls = 50;
      const spacingMs = 100;
      scheduleCallers(clock, () => sim, random, {
        calls,
        spacingMs,
        pressShare: 0.5,
        hangUpShare: 0.4,
        prefix: 'wire',
      });
      const cuts = Array.from({ length: 5 }, () => randomInt(random, calls * spacingMs + 5000));
      for (const at of cuts) clock.setTimeout(() => proxy.cut(), at);

      const end = clock.now() + calls * spacingMs + IVR_CALL_MAX_MS + 10_000;
      while (clock.now() < end) {
        await clock.advance(20);
        await ioTurn();
      }
      // Let the last replies and events arrive.
      for (
        let i = 0;
        i < 200 && (app.counters().activeSessions > 0 || app.counters().pendingRequests > 0);
        i++
      ) {
        await clock.advance(100);
        await ioTurn();
      }

      expect(proxy.cuts).toBe(5);
      expect(app.metrics.summary().reconnects).toBeGreaterThanOrEqual(1);
      const outcomes = expectOneOutcomeLinePerCall(logs.records(), received);
      // Every call the server sent into the application was served: the ones whose StasisStart
      // was lost in a cut were adopted by the reconciliation after the reconnect.
      expect(received).toEqual(sent);
      expect(app.metrics.summary()).toMatchObject({ callsStarted: received.size, callsEnded: received.size });
      expect(sim.channelCount).toBe(0);
      expectNothingLeft(app);
      console.info(
        `wire: cuts ${proxy.cuts}, reconnects ${app.metrics.summary().reconnects}, StasisStart sent ${sent.size}, calls served ${received.size} (adopted ${app.metrics.summary().callsAdopted}), outcomes ${JSON.stringify(outcomes)}`,
      );
    } finally {
      await app.stop();
      await wire.close();
      await proxy.close();
      sim.close();
    }
    await settle();
    expect(unhandled).toEqual([]);
  });
});
