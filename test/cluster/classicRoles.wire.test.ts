import { systemClock } from '@ringflow/client';
import { ClassicCluster, JetStreamCallStore, natsToken } from '@ringflow/cluster';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import {
  type Application,
  type CallHandle,
  type CallInput,
  callActors,
  createApplication,
} from '@ringflow/runtime';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { startNatsServer } from './startNatsServer.ts';
import { startStallingProxy } from './stallingProxy.ts';
import { until as untilValue } from '@ringflow/testing';

/**
 * Classic cluster mode, its roles in process. Two workers in this process (each with
 * its own NATS connection, store owner and cluster roles), on a simulator over the wire.
 * - A `dial` leg enters the application with a StasisStart of its own: the holder must hand it to
 *   the worker whose call dialled it (that call waits for it), not to the least loaded worker,
 *   which would start a call of its own for it.
 * - A worker gone after its calls were assigned and before it wrote their first record: nothing
 *   is in the store to claim, so the holder assigns those calls again.
 * - A holder whose lease another process took (it was paused longer than the lease) closes its
 *   event connection at its next renewal; the roles settle again and calls go on.
 */

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<boolean> =>
  untilValue(what, check, { timeoutMs, everyMs: 25 });

/** Dials PJSIP/customer (a leg the call owns), and waits once it answered. */
const dialler = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'dialling',
  states: {
    dialling: {
      invoke: {
        src: 'dial',
        input: ({ context }) => ({ call: context.call, endpoint: 'PJSIP/customer' }),
        onDone: [
          { guard: ({ event }) => event.output.outcome === 'answered', target: 'connected' },
          { target: 'failed' },
        ],
      },
    },
    connected: {},
    failed: {},
  },
});

async function environment() {
  const nats = await startNatsServer();
  cleanups.push(() => nats.stop());
  const sim = createSimulator({
    clock: systemClock,
    dialplan: { text: '[pbx]\nexten => 100,1,Stasis(ivr)\n same => n,Hangup()\n' },
    endpoints: { 'PJSIP/customer': 'answer' },
    answerOutboundAfterMs: 100,
  });
  cleanups.push(() => sim.close());
  const wire = await startWireServer(sim, {
    users: [{ username: 'ringflow', password: 'secret' }],
    clock: systemClock,
  });
  cleanups.push(() => wire.close());
  /** A worker in this process: its own NATS connection, store owner, cluster roles and application. */
  const worker = async (name: string, acceptCall?: () => boolean, natsUrl = nats.url) => {
    const store = await JetStreamCallStore.connect(natsUrl, { owner: name });
    cleanups.push(() => store.close());
    const logger = pino({ level: 'warn', base: { worker: name } });
    const cluster = await ClassicCluster.start({
      connection: store.connection,
      store,
      server: { url: `http://127.0.0.1:${wire.port}/ari`, username: 'ringflow', password: 'secret' },
      app: 'ivr',
      logger,
      leaseTtlMs: 1_500,
      renewMs: 250,
    });
    const app = createApplication({
      servers: [cluster.serverOptions],
      apps: ['ivr'],
      call: dialler,
      store,
      acceptCall: acceptCall ?? cluster.acceptCall,
      logger,
    });
    await app.start();
    cluster.run(app);
    cleanups.push(async () => {
      await cluster.stopHolding();
      await app.stop();
      await cluster.stop();
    });
    return { app, cluster };
  };
  /** A proxy to NATS whose traffic a test can hold back (a worker cut from NATS). */
  const proxy = await startStallingProxy(nats.port);
  cleanups.push(() => proxy.close());
  return { sim, worker, proxy, natsUrl: nats.url, serverName: `127.0.0.1:${wire.port}` };
}

const state = (app: Application, call: string) =>
  (app.call(call)?.machine?.getSnapshot().value as string | undefined) ?? undefined;

describe('classic cluster mode: a dialled leg', () => {
  it('reaches the worker whose call dialled it', async () => {
    const { sim, worker } = await environment();
    const workers = [await worker('w1'), await worker('w2')];
    const apps = workers.map((w) => w.app);
    const clusters = workers.map((w) => w.cluster);
    // One holds the event connection and both see both (the holder assigns among those it knows).
    await until(
      'a holder, and both workers listed',
      () => clusters.some((c) => c.holding) && clusters.every((c) => c.liveWorkers.size === 2),
    );
    const calls = Array.from({ length: 4 }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    await until('every call connected to its leg', () =>
      calls.every((c) => apps.some((a) => state(a, c) === 'connected')),
    );
    // The calls are spread over both, and no worker started a call for a leg.
    expect(apps.every((a) => a.activeCalls().length > 0)).toBe(true);
    for (const app of apps) for (const s of app.activeCalls()) expect(calls).toContain(s.channelId);
  }, 60_000);
});

describe('classic cluster mode: a worker gone before its call’s first record', () => {
  it('the holder assigns the call again to a live worker', async () => {
    const { sim, worker } = await environment();
    const w1 = await worker('w1');
    await until('w1 to hold the event connection', () => w1.cluster.holding);
    // w2 is assigned calls but never starts them: as if it died right after their StasisStart.
    const w2 = await worker('w2', () => false);
    await until('both workers listed', () => w1.cluster.liveWorkers.size === 2);
    const calls = Array.from({ length: 4 }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    await until('w1 to start its share', () => w1.app.activeCalls().length > 0);
    expect(w1.app.activeCalls().length).toBeLessThan(calls.length);
    // w2's lease goes (its process gone): the holder assigns its calls again, to w1.
    await w2.cluster.stop();
    await until('every call connected on w1', () => calls.every((c) => state(w1.app, c) === 'connected'));
    expect(w2.app.activeCalls()).toHaveLength(0);
  }, 60_000);
});

describe('classic cluster mode: a holder that lost its lease', () => {
  it('closes its event connection at its next renewal; another holder takes over and calls go on', async () => {
    const { sim, worker, natsUrl, serverName } = await environment();
    const w1 = await worker('w1');
    await until('w1 to hold the event connection', () => w1.cluster.holding);
    const w2 = await worker('w2');
    // Another process takes the lease from under w1 (as if w1 had been paused past the TTL).
    const nc = await connect({ servers: natsUrl });
    cleanups.push(() => nc.close());
    const leases = await new Kvm(nc).open('ringflow-leases');
    const key = `events.${natsToken(serverName)}.${natsToken('ivr')}`;
    // One write (not delete then create: the other worker could take the key in between).
    await leases.put(key, 'intruder');
    await until('w1 to close its event connection', () => !w1.cluster.holding);
    // The intruder never renews: its lease lapses and one of the workers holds the connection again.
    await until(
      'a worker to hold the event connection again',
      () => w1.cluster.holding || w2.cluster.holding,
    );
    const call = sim.driver.placeCall({ context: 'pbx', to: '100' });
    await until('the new call connected', () => [w1, w2].some((w) => state(w.app, call) === 'connected'));
  }, 60_000);
});

describe('classic cluster mode: a new call that reaches a fenced worker', () => {
  it('is started once the worker holds its lease again, by one worker only', async () => {
    const { sim, worker, proxy } = await environment();
    const w1 = await worker('w1');
    await until('w1 to hold the event connection', () => w1.cluster.holding);
    // w2 reaches NATS through the proxy.
    const w2 = await worker('w2', undefined, proxy.url);
    const workers = [w1, w2];
    await until('both workers listed by both', () => workers.every((w) => w.cluster.liveWorkers.size === 2));
    // A first call goes to w1 (the least loaded, by name on a tie): w2 is now the least loaded.
    const first = sim.driver.placeCall({ context: 'pbx', to: '100' });
    await until('the first call connected on w1', () => state(w1.app, first) === 'connected');
    await until('w1 listed with its call', () => w1.cluster.liveWorkers.has('w2'));
    // w2 is cut from NATS; a new call is assigned to it (still listed), and its StasisStart waits
    // in the proxy until w2 has let go of its lease (fenced), then reaches it.
    proxy.stall();
    const second = sim.driver.placeCall({ context: 'pbx', to: '100' });
    await until('w2 fenced', () => w2.cluster.fenced);
    proxy.resume();
    // Refused while fenced; w2 holds its lease again within a turn or two, before w1 sees it gone,
    // so nobody else is given the call: w2 must start it itself (or, had w1 seen it gone, w1).
    await until(
      'the second call connected',
      () => workers.some((w) => state(w.app, second) === 'connected'),
      20_000,
    );
    // Had w1 seen w2 gone and started the call itself, w2 may still be fenced at this point: it
    // comes back within its next renewals, and must not start the call a second time when it does.
    await until('w2 holding its lease again', () => !w2.cluster.fenced, 20_000);
    await until('w2 listed again by w1', () => w1.cluster.liveWorkers.has('w2'), 20_000);
    expect(workers.filter((w) => w.app.call(second) !== undefined)).toHaveLength(1);
  }, 60_000);
});
