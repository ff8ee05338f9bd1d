import { systemClock } from '@ringflow/client';
import {
  type Application,
  type CallEnded,
  applicationReadiness,
  createApplication,
  MemoryCallStore,
} from '@ringflow/runtime';
import { createSimulator, startWireServer, type WireServer } from '@ringflow/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../reliability/captureLogs.ts';
import { EventSocketProxy } from './EventSocketProxy.ts';
import { waitForHangup } from './harness.ts';
import { until } from '@ringflow/testing';

const users = [{ username: 'ringflow', password: 'secret' }];
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function world() {
  const simulator = createSimulator({ clock: systemClock });
  cleanups.push(() => simulator.close());
  const wire: WireServer = await startWireServer(simulator, { users, clock: systemClock });
  cleanups.push(() => wire.close());
  const proxy = await EventSocketProxy.start(wire.port);
  cleanups.push(() => proxy.close());
  return { simulator, wire, proxy };
}

/** An application on `url` (backoff short, so a reconnect would come at once if it were tried). */
async function application(url: string, apps: string[], store: MemoryCallStore) {
  const logs = captureLogs('info');
  const ended: CallEnded[] = [];
  const app: Application = createApplication({
    servers: [
      {
        name: 'pbx',
        url,
        username: 'ringflow',
        password: 'secret',
        eventStream: { backoff: { initialDelayMs: 5, maxDelayMs: 10 }, pingIntervalMs: 0 },
      },
    ],
    apps,
    call: waitForHangup,
    store,
    clock: systemClock,
    logger: logs.logger,
    onCallEnded: (c) => ended.push(c),
  });
  await app.start();
  cleanups.push(() => app.stop());
  return { app, logs, ended };
}

const replacedLog = (logs: ReturnType<typeof captureLogs>, app: string) =>
  logs
    .records()
    .filter(
      (r) => r.level === 50 && String(r.msg).includes(`another connection registered application "${app}"`),
    );

describe('ApplicationReplaced: a second process registers the same application on the server', () => {
  it('the first says it as an error, is not ready, lets its calls go untouched and does not take the application back', async () => {
    const { simulator, wire, proxy } = await world();
    const store = new MemoryCallStore();
    // The first process reaches the server through a proxy that can cut its event socket.
    const first = await application(proxy.url, ['svc'], store);
    const c1 = simulator.driver.placeCall({ app: 'svc' });
    await until(
      'the first process answers c1',
      () => first.app.call(c1)?.machine?.getSnapshot().value === 'talking',
    );
    expect(applicationReadiness(first.app)).toEqual({ ready: true, reasons: [] });

    const second = await application(wire.url, ['svc'], store);
    await until('the first process says it was replaced', () => replacedLog(first.logs, 'svc').length === 1);
    expect(replacedLog(first.logs, 'svc')[0]).toMatchObject({ server: 'pbx', app: 'svc', calls: [c1] });
    const readiness = applicationReadiness(first.app);
    expect(readiness.ready).toBe(false);
    expect(readiness.reasons).toContain(
      'pbx: application "svc" replaced by another connection to the server (another process with the same application name?)',
    );
    expect(applicationReadiness(second.app)).toEqual({ ready: true, reasons: [] });
    // Its call is let go without touching the channel; the record stays for whoever serves svc now.
    expect(first.ended.map((c) => [c.callId, c.outcome])).toEqual([[c1, 'detached']]);
    expect((await second.app.client().channels.list()).map((c) => c.id)).toContain(c1);
    expect(store.get(c1)?.channelId).toBe(c1);
    // With a shared store, the process that registered last restored c1 when it started.
    await until(
      'the second process took c1 over',
      () => second.app.call(c1)?.machine?.getSnapshot().value === 'talking',
    );
    // It stopped listening: nothing to reconnect.
    expect(first.app.connections()[0]?.state.kind).toBe('closed');

    // The network drops and comes back: the first process does not dial in again.
    proxy.down();
    proxy.restore();
    const c2 = simulator.driver.placeCall({ app: 'svc' });
    await until(
      'the second process answers c2',
      () => second.app.call(c2)?.machine?.getSnapshot().value === 'talking',
    );
    expect(first.app.activeCalls()).toEqual([]);
    expect(proxy.handshakes).toHaveLength(1);
    expect(replacedLog(second.logs, 'svc')).toEqual([]);
  });

  it('one application of several replaced: the others go on; a drop then ends the stream instead of reconnecting', async () => {
    const { simulator, wire, proxy } = await world();
    const store = new MemoryCallStore();
    const first = await application(proxy.url, ['svc', 'other'], store);
    const second = await application(wire.url, ['svc'], store);
    await until('the first process says svc was replaced', () => replacedLog(first.logs, 'svc').length === 1);
    expect(applicationReadiness(first.app).reasons).toEqual([
      'pbx: application "svc" replaced by another connection to the server (another process with the same application name?)',
    ]);
    // `other` is still served by the first process, on the same socket.
    const c1 = simulator.driver.placeCall({ app: 'other' });
    await until(
      'the first process answers c1',
      () => first.app.call(c1)?.machine?.getSnapshot().value === 'talking',
    );
    expect(first.app.connections()[0]?.state.kind).toBe('open');

    // The socket drops: reconnecting would register svc again and take it from the second process.
    proxy.down();
    await until('the first stream closed', () => first.app.connections()[0]?.state.kind === 'closed');
    proxy.restore();
    expect(
      first.logs
        .records()
        .some((r) => r.level === 50 && String(r.msg).startsWith('the event stream dropped after')),
    ).toBe(true);
    const c2 = simulator.driver.placeCall({ app: 'svc' });
    await until(
      'the second process answers c2',
      () => second.app.call(c2)?.machine?.getSnapshot().value === 'talking',
    );
    expect(proxy.handshakes).toHaveLength(1);
    expect((await second.app.client().applications.get({ applicationName: 'svc' })).name).toBe('svc');
  });
});
