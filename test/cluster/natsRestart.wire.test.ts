import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { JetStreamCallStore } from '@ringflow/cluster';
import {
  type Application,
  type CallEnded,
  type CallInput,
  callActors,
  createApplication,
} from '@ringflow/runtime';
import { createSimulator, startOutboundWebSockets } from '@ringflow/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { startNatsServer } from './startNatsServer.ts';
import { until as untilValue } from '@ringflow/testing';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const until = <T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 40_000,
): Promise<T> => untilValue(what, check, { timeoutMs, everyMs: 25 });

/** Answer, wait for a key, say it, hang up. */
const sayKey = setup({ types: { input: {} as CallInput }, actors: callActors }).createMachine({
  initial: 'answering',
  states: {
    answering: { invoke: { src: 'answer', onDone: 'asking' } },
    asking: {
      invoke: {
        src: 'collectDigits',
        input: { maxDigits: 1, firstDigitTimeoutMs: 60_000 },
        onDone: 'telling',
      },
    },
    telling: { invoke: { src: 'userEvent', input: { name: 'KeyHeard' }, onDone: 'leaving' } },
    leaving: { invoke: { src: 'hangup', onDone: 'done' } },
    done: { type: 'final' },
  },
});

describe('NATS restarted (JetStream file storage)', () => {
  it('the records survive, the stores reconnect, and a call is still taken over after the restart', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const processes: { app: Application; store: JetStreamCallStore; ended: CallEnded[] }[] = [];
    for (const name of ['a', 'b']) {
      const store = await JetStreamCallStore.connect(nats.url, { bucket: 'restart', owner: name });
      cleanups.push(() => store.close());
      const ended: CallEnded[] = [];
      const app = createApplication({
        servers: [],
        apps: ['ow-call'],
        call: sayKey,
        store,
        logger: { level: 'silent' },
        listen: { port: 0, path: '/ari-call', accounts: [{ username: 'u', password: 'p' }] },
        onCallEnded: (c) => ended.push(c),
      });
      await app.start();
      cleanups.push(() => app.stop());
      processes.push({ app, store, ended });
    }
    // A round robin that can cut its connections, as a process dying would.
    const sockets = new Set<Socket>();
    let next = 0;
    const proxy = createServer((client: Socket) => {
      const upstream = connect(processes[next++ % 2]!.app.listening!.port, '127.0.0.1');
      sockets.add(client);
      client.pipe(upstream).pipe(client);
      client.on('close', () => {
        sockets.delete(client);
        upstream.destroy();
      });
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => proxy.close(resolve)));
    const sim = createSimulator({
      dialplan: { text: '[ow]\nexten => percall,1,Stasis(ow-call)\n same => n,Hangup()\n' },
    });
    cleanups.push(() => sim.close());
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri: `ws://127.0.0.1:${(proxy.address() as AddressInfo).port}/ari-call`,
          apps: ['ow-call'],
          username: 'u',
          password: 'p',
          reconnectIntervalMs: 50,
          closeAfterStasisEndMs: 10,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const heard: string[] = [];
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent') heard.push(String(e.eventname));
    });
    const [a, b] = [processes[0]!, processes[1]!];
    const caller = sim.driver.placeCall({ context: 'ow', to: 'percall' });
    const asking = (records: readonly { callId: string; machine: unknown }[]) =>
      records.some(
        (r) => r.callId === caller && JSON.stringify((r.machine as { value?: unknown }).value) === '"asking"',
      );
    await until('the call waits for a key on a, its record written', async () =>
      asking(await b.store.list()),
    );
    expect(await b.store.ownerOf(caller)).toBe('a');

    await nats.restart();
    // The record is still there once both stores are back (file storage; the client reconnects).
    for (const p of processes)
      await until('the store is back', async () => {
        try {
          return asking(await p.store.list());
        } catch {
          return false;
        }
      });

    // a's socket for the call drops; the server re-dials it to b, which takes the call over.
    for (const socket of sockets) socket.destroy();
    await until(
      'b took the call over',
      () => JSON.stringify(b.app.call(caller)?.machine?.getSnapshot().value) === '"asking"',
    );
    expect(await b.store.ownerOf(caller)).toBe('b');
    sim.driver.pressDigits(caller, '7');
    await until('the call ended on b', () => b.ended.length === 1);
    expect(a.ended.map((c) => c.outcome)).toEqual(['detached']);
    expect(b.ended.map((c) => c.outcome)).toEqual(['completed']);
    expect(heard).toEqual(['KeyHeard']);
    await until('its record removed', async () => (await b.store.list()).length === 0);
  }, 90_000);
});
