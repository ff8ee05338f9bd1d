import { systemClock } from '@ringflow/client';
import { ClassicCluster, JetStreamCallStore } from '@ringflow/cluster';
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

/**
 * Classic cluster mode and channels a call makes: a `dial` leg enters the application with a
 * StasisStart of its own. The holder must hand it to the worker whose call dialled it (that call
 * waits for it), not to the least loaded worker, which would start a call of its own for it. Two
 * workers in this process (each with its own NATS connection, store owner and cluster roles), on
 * a simulator over the wire.
 */

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

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

describe('classic cluster mode: a dialled leg', () => {
  it('reaches the worker whose call dialled it', async () => {
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
    const apps: Application[] = [];
    const clusters: ClassicCluster[] = [];
    for (const name of ['w1', 'w2']) {
      const store = await JetStreamCallStore.connect(nats.url, { owner: name });
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
        acceptCall: cluster.acceptCall,
        logger,
      });
      await app.start();
      cluster.run(app);
      clusters.push(cluster);
      cleanups.push(async () => {
        await cluster.stopHolding();
        await app.stop();
        await cluster.stop();
      });
      apps.push(app);
    }
    // One holds the event connection and both see both (the holder assigns among those it knows).
    await until(
      'a holder, and both workers listed',
      () => clusters.some((c) => c.holding) && clusters.every((c) => c.liveWorkers.size === 2),
    );
    const calls = Array.from({ length: 4 }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    const state = (app: Application, call: string) =>
      (app.call(call)?.machine?.getSnapshot().value as string | undefined) ?? undefined;
    await until('every call connected to its leg', () =>
      calls.every((c) => apps.some((a) => state(a, c) === 'connected')),
    );
    // The calls are spread over both, and no worker started a call for a leg.
    expect(apps.every((a) => a.activeCalls().length > 0)).toBe(true);
    for (const app of apps) for (const s of app.activeCalls()) expect(calls).toContain(s.channelId);
  }, 60_000);
});
