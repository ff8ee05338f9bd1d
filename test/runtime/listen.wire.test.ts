import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  type Application,
  applicationReadiness,
  type CallEnded,
  type CallHandle,
  type CallInput,
  type CallStore,
  callActors,
  createApplication,
  MemoryCallStore,
} from '@ringflow/runtime';
import {
  createSimulator,
  type Simulator,
  startOutboundWebSockets,
  startWireServer,
} from '@ringflow/simulator';
import { makeTestCertificates } from '../reliability/makeTestCertificates.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnyStateMachine, setup } from 'xstate';
import { until } from '@ringflow/testing';

const DIALPLAN = `
[ow]
exten => persistent,1,Stasis(ow-app,arg1)
 same => n,Hangup()
exten => percall,1,Stasis(ow-call,arg1)
 same => n,Hangup()
`;

/** Answer, a beep, a user event naming the call's application, hang up: every action over the socket. */
const beepAndHangUp = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'beep' },
    },
    beep: {
      invoke: {
        src: 'play',
        input: ({ context }) => ({ call: context.call, media: 'sound:beep' }),
        onDone: 'telling',
      },
    },
    telling: {
      invoke: {
        src: 'userEvent',
        input: ({ context }) => ({ call: context.call, name: 'OwTest', variables: { k: 'v' } }),
        onDone: 'leaving',
      },
    },
    leaving: {
      invoke: { src: 'hangup', input: ({ context }) => ({ call: context.call }), onDone: 'done' },
    },
    done: { type: 'final' },
  },
});

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function simulator(): Simulator {
  const sim = createSimulator({ dialplan: { text: DIALPLAN } });
  cleanups.push(() => sim.close());
  return sim;
}

async function listeningApp(
  apps: string[],
  path: string,
  options: { store?: CallStore; call?: AnyStateMachine } = {},
): Promise<{ app: Application; ended: CallEnded[] }> {
  const ended: CallEnded[] = [];
  const app = createApplication({
    servers: [],
    apps,
    call: options.call ?? beepAndHangUp,
    ...(options.store ? { store: options.store } : {}),
    logger: { level: 'silent' },
    listen: { port: 0, path, accounts: [{ username: 'appuser', password: 'apppass' }] },
    onCallEnded: (c) => ended.push(c),
  });
  await app.start();
  cleanups.push(() => app.stop());
  return { app, ended };
}

/** A TCP round robin in front of several ports: each new connection goes to the next one. */
async function roundRobin(ports: readonly number[]): Promise<Server> {
  let next = 0;
  const proxy = createServer((client: Socket) => {
    const upstream = connect(ports[next++ % ports.length]!, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => proxy.close(resolve)));
  return proxy;
}

/** Answer, wait for a key, say it, hang up: the key is pressed after the connection was lost. */
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

/** A round robin that can cut its connections, as a process dying or a network blip would. */
async function cuttingRoundRobin(ports: readonly number[]): Promise<{ port: number; cut: () => void }> {
  const sockets = new Set<Socket>();
  let next = 0;
  const proxy = createServer((client: Socket) => {
    const upstream = connect(ports[next++ % ports.length]!, '127.0.0.1');
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
  return {
    port: (proxy.address() as AddressInfo).port,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

describe('the application listens and the server dials it', () => {
  it('persistent: calls run over the socket, with Basic credentials checked', async () => {
    const { app, ended } = await listeningApp(['ow-app'], '/ari-app');
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'persistent',
          uri: app.listening!.url,
          apps: ['ow-app'],
          username: 'appuser',
          password: 'apppass',
        },
      ],
    });
    cleanups.push(() => outbound.close());
    await outbound.whenConnected();
    const ids = [1, 2, 3].map(() => sim.driver.placeCall({ context: 'ow', to: 'persistent' }));
    await until('three calls ended', () => ended.length === 3);
    expect(ended.map((c) => c.outcome)).toEqual(['completed', 'completed', 'completed']);
    expect(new Set(ended.map((c) => c.callId))).toEqual(new Set(ids));
    expect(ended.every((c) => c.app === 'ow-app')).toBe(true);
    expect(app.listening!.acceptedConnections).toBe(1);
  });

  it('refuses a server with wrong credentials', async () => {
    const { app } = await listeningApp(['ow-app'], '/ari-app');
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'persistent',
          uri: app.listening!.url,
          apps: ['ow-app'],
          username: 'appuser',
          password: 'nope',
        },
      ],
    });
    cleanups.push(() => outbound.close());
    await until('a refusal', () => app.listening!.refusedConnections > 0);
    expect(app.listening!.acceptedConnections).toBe(0);
  });

  it('per call: each call on its own connection, its app name mapped back to the flow app', async () => {
    const { app, ended } = await listeningApp(['ow-call'], '/ari-call');
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri: app.listening!.url,
          apps: ['ow-call'],
          username: 'appuser',
          password: 'apppass',
          closeAfterStasisEndMs: 10,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const userEvents: string[] = [];
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent') userEvents.push(String(e.eventname));
    });
    // Ready as soon as it listens: a load balancer that probes it must send it calls (issue 27).
    expect(applicationReadiness(app)).toEqual({ ready: true, reasons: [] });
    for (let i = 0; i < 5; i++) sim.driver.placeCall({ context: 'ow', to: 'percall' });
    await until('five calls ended', () => ended.length === 5);
    expect(ended.map((c) => c.outcome)).toEqual(Array(5).fill('completed'));
    expect(ended.every((c) => c.app?.startsWith('ow-call:'))).toBe(true);
    expect(userEvents).toEqual(Array(5).fill('OwTest'));
    expect(outbound.opened.perCall).toBe(5);
    await until('every connection closed', () => app.listening!.openConnections === 0);
    expect(app.listening!.acceptedConnections).toBe(5);
    expect(app.counters()).toMatchObject({ activeSessions: 0, routes: 0, pendingRequests: 0 });
  });

  it('200 concurrent calls on per-call connections to 3 applications behind a TCP round robin', async () => {
    const processes = await Promise.all([1, 2, 3].map(() => listeningApp(['ow-call'], '/ari-call')));
    const proxy = await roundRobin(processes.map((p) => p.app.listening!.port));
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri: `ws://127.0.0.1:${(proxy.address() as AddressInfo).port}/ari-call`,
          apps: ['ow-call'],
          username: 'appuser',
          password: 'apppass',
          closeAfterStasisEndMs: 10,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const ids = Array.from({ length: 200 }, () => sim.driver.placeCall({ context: 'ow', to: 'percall' }));
    const total = () => processes.reduce((n, p) => n + p.ended.length, 0);
    await until('200 calls ended', () => total() === 200, { timeoutMs: 60_000 });
    const handled = processes.map((p) => p.ended);
    // Each call ran, completed, on exactly one process: the one its connection landed on.
    expect(handled.flat().every((c) => c.outcome === 'completed')).toBe(true);
    expect(new Set(handled.flat().map((c) => c.callId))).toEqual(new Set(ids));
    expect(handled.map((h) => h.length)).toEqual([67, 67, 66]);
    expect(processes.map((p) => p.app.listening!.acceptedConnections)).toEqual([67, 67, 66]);
    expect(outbound.opened.perCall).toBe(200);
    expect(outbound.failedCalls).toBe(0);
  }, 90_000);

  it('per call, with a store: a connection lost mid-call is re-dialled by the server and the call taken over by the process it reaches', async () => {
    const store = new MemoryCallStore();
    const processes = await Promise.all(
      [1, 2].map(() => listeningApp(['ow-call'], '/ari-call', { store, call: sayKey })),
    );
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
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri: `ws://127.0.0.1:${(proxy.address() as AddressInfo).port}/ari-call`,
          apps: ['ow-call'],
          username: 'appuser',
          password: 'apppass',
          closeAfterStasisEndMs: 10,
          reconnectIntervalMs: 50,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const heard: string[] = [];
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent') heard.push(String(e.eventname));
    });
    const caller = sim.driver.placeCall({ context: 'ow', to: 'percall' });
    const first = processes[0]!.app;
    await until(
      'the call waits for a key on the first process',
      () => JSON.stringify(first.call(caller)?.machine?.getSnapshot().value) === '"asking"',
    );
    for (const socket of sockets) socket.destroy();
    const second = processes[1]!.app;
    await until(
      'the second process took the call over',
      () => JSON.stringify(second.call(caller)?.machine?.getSnapshot().value) === '"asking"',
    );
    sim.driver.pressDigits(caller, '7');
    await until('the call ended', () => processes[1]!.ended.length === 1);
    expect(processes[0]!.ended.map((c) => c.outcome)).toEqual(['detached']);
    expect(processes[1]!.ended.map((c) => c.outcome)).toEqual(['completed']);
    expect(heard).toEqual(['KeyHeard']);
    expect(outbound.opened.perCall).toBe(2);
    expect(outbound.failedCalls).toBe(0);
    expect(store.size).toBe(0);
  }, 30_000);

  it('per call, without a store: a connection lost mid-call is re-dialled and the call continues in the same process', async () => {
    const { app, ended } = await listeningApp(['ow-call'], '/ari-call', { call: sayKey });
    const proxy = await cuttingRoundRobin([app.listening!.port]);
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri: `ws://127.0.0.1:${proxy.port}/ari-call`,
          apps: ['ow-call'],
          username: 'appuser',
          password: 'apppass',
          closeAfterStasisEndMs: 10,
          reconnectIntervalMs: 50,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const heard: string[] = [];
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent') heard.push(String(e.eventname));
    });
    const caller = sim.driver.placeCall({ context: 'ow', to: 'percall' });
    const asking = () => JSON.stringify(app.call(caller)?.machine?.getSnapshot().value) === '"asking"';
    await until('the call waits for a key', asking);
    const before = app.call(caller);
    proxy.cut();
    await until('the call continues on the re-dialled socket', () => app.call(caller) !== before && asking());
    sim.driver.pressDigits(caller, '7');
    await until('the call ended', () => ended.some((c) => c.outcome === 'completed'));
    expect(ended.map((c) => c.outcome)).toEqual(['detached', 'completed']);
    expect(heard).toEqual(['KeyHeard']);
    expect(outbound.opened.perCall).toBe(2);
    expect(outbound.failedCalls).toBe(0);
  }, 30_000);

  it('per call, without a store: a call the server does not re-dial ends failed after the grace period', async () => {
    const ended: CallEnded[] = [];
    const app = createApplication({
      servers: [],
      apps: ['ow-call'],
      call: sayKey,
      logger: { level: 'silent' },
      listen: {
        port: 0,
        path: '/ari-call',
        redialGraceMs: 200,
        accounts: [{ username: 'appuser', password: 'apppass' }],
      },
      onCallEnded: (c) => ended.push(c),
    });
    await app.start();
    cleanups.push(() => app.stop());
    const proxy = await cuttingRoundRobin([app.listening!.port]);
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri: `ws://127.0.0.1:${proxy.port}/ari-call`,
          apps: ['ow-call'],
          username: 'appuser',
          password: 'apppass',
          reconnectIntervalMs: 50,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const caller = sim.driver.placeCall({ context: 'ow', to: 'percall' });
    await until(
      'the call waits for a key',
      () => JSON.stringify(app.call(caller)?.machine?.getSnapshot().value) === '"asking"',
    );
    await outbound.close();
    proxy.cut();
    await until('the session ended', () => ended.length === 1);
    expect(ended.map((c) => c.outcome)).toEqual(['failed']);
  }, 30_000);

  it('listen.tls: the server dials wss:// and the call runs over TLS', async () => {
    const certs = makeTestCertificates();
    const ended: CallEnded[] = [];
    const app = createApplication({
      servers: [],
      apps: ['ow-app'],
      call: beepAndHangUp,
      logger: { level: 'silent' },
      listen: {
        port: 0,
        path: '/ari-app',
        accounts: [{ username: 'appuser', password: 'apppass' }],
        tls: { cert: certs.serverCert, key: certs.serverKey },
      },
      onCallEnded: (c) => ended.push(c),
    });
    await app.start();
    cleanups.push(() => app.stop());
    expect(app.listening!.url).toMatch(/^wss:\/\//);
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'persistent',
          uri: `wss://localhost:${app.listening!.port}/ari-app`,
          apps: ['ow-app'],
          username: 'appuser',
          password: 'apppass',
          ca: certs.ca,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    await outbound.whenConnected();
    sim.driver.placeCall({ context: 'ow', to: 'persistent' });
    await until('the call completed', () => ended.length === 1);
    expect(ended.map((c) => c.outcome)).toEqual(['completed']);
  }, 30_000);

  it("binary downloads fall back to the server's HTTP address (listen.http), and fail with CONFIG without it", async () => {
    const stay = setup({ types: { input: {} as CallInput }, actors: callActors }).createMachine({
      initial: 'answering',
      states: { answering: { invoke: { src: 'answer', onDone: 'talking' } }, talking: {} },
    });
    const sim = simulator();
    const wire = await startWireServer(sim, { users: [{ username: 'ringflow', password: 'secret' }] });
    cleanups.push(() => wire.close());
    const apps = await Promise.all(
      [true, false].map(async (withHttp) => {
        const app = createApplication({
          servers: [],
          apps: ['ow-app'],
          call: stay,
          logger: { level: 'silent' },
          listen: {
            port: 0,
            path: '/ari-app',
            accounts: [{ username: 'appuser', password: 'apppass' }],
            ...(withHttp ? { http: { url: wire.url, username: 'ringflow', password: 'secret' } } : {}),
          },
        });
        await app.start();
        cleanups.push(() => app.stop());
        return app;
      }),
    );
    for (const app of apps) {
      const outbound = startOutboundWebSockets(sim, {
        connections: [
          {
            connectionType: 'persistent',
            uri: `ws://127.0.0.1:${app.listening!.port}/ari-app`,
            apps: ['ow-app'],
            username: 'appuser',
            password: 'apppass',
          },
        ],
      });
      cleanups.push(() => outbound.close());
      await outbound.whenConnected();
      const caller = sim.driver.placeCall({ context: 'ow', to: 'persistent' });
      const session = await until('the call is answered', () => {
        const s = app.call(caller);
        return JSON.stringify(s?.machine?.getSnapshot().value) === '"talking"' && s;
      });
      const name = `take-${apps.indexOf(app)}`;
      // Recording and stopping travel over the socket; only the file needs HTTP.
      await session.client.channels.record({ channelId: caller, name, format: 'wav' });
      await session.client.recordings.stop({ recordingName: name });
      const download = session.client.recordings.getStoredFile({ recordingName: name });
      if (app === apps[0]) {
        const file = await download;
        // A WAV file (its 44-byte header, and whatever audio the moment held): what matters here
        // is that the binary download took the HTTP way.
        expect(file.byteLength).toBeGreaterThanOrEqual(44);
        expect(new TextDecoder().decode(file.subarray(0, 4))).toBe('RIFF');
      } else {
        await expect(download).rejects.toMatchObject({ code: 'CONFIG' });
      }
      await outbound.close();
    }
  }, 30_000);
});
