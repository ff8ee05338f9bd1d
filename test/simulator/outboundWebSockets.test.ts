import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulator, type Simulator, startOutboundWebSockets } from '@ringflow/simulator';
import { until } from '@ringflow/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';

const DIALPLAN = `
[ow]
exten => persistent,1,NoOp()
 same => n,Stasis(ow-app,arg1)
 same => n,Hangup()
exten => percall,1,NoOp()
 same => n,Stasis(ow-call,arg1)
 same => n,Set(AFTER=\${STASISSTATUS})
 same => n,Hangup()
`;

/** One connection the application accepted, as the recording server logged it. */
interface Accepted {
  readonly url: string;
  readonly authorization: string | undefined;
  readonly protocol: string;
  readonly received: Record<string, unknown>[];
  closedWith?: number;
  readonly ws: WebSocket;
}

/**
 * A small application on loopback that does what the recording server did: on StasisStart it
 * answers, then hangs up, both as REST requests over the socket.
 */
async function startRecordingApp(options: { dropAfterAnswer?: boolean } = {}) {
  const accepted: Accepted[] = [];
  const http = createServer();
  const wss = new WebSocketServer({ server: http, handleProtocols: (p) => (p.has('ari') ? 'ari' : false) });
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const conn: Accepted = {
      url: req.url ?? '',
      authorization: req.headers.authorization,
      protocol: ws.protocol,
      received: [],
      ws,
    };
    accepted.push(conn);
    let n = 0;
    const request = (method: string, uri: string) =>
      ws.send(
        JSON.stringify({ type: 'RESTRequest', request_id: `r${++n}`, transaction_id: 'tx', method, uri }),
      );
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as Record<string, unknown>;
      conn.received.push(msg);
      const channel = (msg.channel as { id: string } | undefined)?.id;
      if (msg.type === 'StasisStart') request('POST', `channels/${channel}/answer`);
      if (msg.type === 'RESTResponse' && msg.request_id === 'r1') {
        if (options.dropAfterAnswer) ws.terminate();
        else request('DELETE', `channels/${String(msg.uri).split('/')[1]}`);
      }
    });
    ws.on('close', (code) => {
      conn.closedWith = code;
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    accepted,
    uri: (path: string) => `ws://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        http.close(() => resolve());
      }),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function simulator(): Simulator {
  const sim = createSimulator({ dialplan: { text: DIALPLAN } });
  cleanups.push(() => sim.close());
  return sim;
}

describe('the simulator dials the application (outbound WebSockets)', () => {
  it('persistent: Basic credentials and subprotocol ari, ApplicationRegistered first, REST over the socket', async () => {
    const app = await startRecordingApp();
    cleanups.push(app.close);
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'persistent',
          uri: app.uri('/ari-app'),
          apps: ['ow-app'],
          username: 'appuser',
          password: 'apppass',
        },
      ],
    });
    cleanups.push(() => outbound.close());
    await outbound.whenConnected();
    const conn = await until('the connection', () => app.accepted[0]);
    expect(conn).toMatchObject({
      url: '/ari-app',
      authorization: 'Basic YXBwdXNlcjphcHBwYXNz',
      protocol: 'ari',
    });
    await until('ApplicationRegistered', () => conn.received.length > 0);
    expect(conn.received[0]).toMatchObject({ type: 'ApplicationRegistered', application: 'ow-app' });

    const channelId = sim.driver.placeCall({ context: 'ow', to: 'persistent' });
    await until('the hangup', () => !sim.hasChannel(channelId));
    await until('StasisEnd', () => conn.received.some((m) => m.type === 'StasisEnd'));
    expect(conn.received.map((m) => m.type)).toContain('StasisStart');
    expect(conn.received.filter((m) => m.type === 'RESTResponse').map((m) => m.status_code)).toEqual([
      204, 204,
    ]);
    expect(outbound.opened).toEqual({ persistent: 1, perCall: 0 });
  });

  it('persistent: re-opens the connection after it drops', async () => {
    const app = await startRecordingApp();
    cleanups.push(app.close);
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        { connectionType: 'persistent', uri: app.uri('/ari-app'), apps: ['ow-app'], reconnectIntervalMs: 20 },
      ],
    });
    cleanups.push(() => outbound.close());
    const first = await until('the connection', () => app.accepted[0]);
    first.ws.terminate();
    const second = await until('the second connection', () => app.accepted[1]);
    await until('ApplicationRegistered again', () => second.received.length > 0);
    expect(second.received[0]).toMatchObject({ type: 'ApplicationRegistered', application: 'ow-app' });
    expect(outbound.opened.persistent).toBe(2);
  });

  it('per call: one connection per call, app named ow-call:<channel name>, closed after StasisEnd', async () => {
    const app = await startRecordingApp();
    cleanups.push(app.close);
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri: app.uri('/ari-call'),
          apps: ['ow-call'],
          closeAfterStasisEndMs: 20,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const ids = [
      sim.driver.placeCall({ context: 'ow', to: 'percall' }),
      sim.driver.placeCall({ context: 'ow', to: 'percall' }),
    ];
    await until('both calls ended', () => ids.every((id) => !sim.hasChannel(id)));
    await until(
      'both connections closed',
      () => app.accepted.length === 2 && app.accepted.every((c) => c.closedWith !== undefined),
    );
    for (const conn of app.accepted) {
      const registered = conn.received[0]!;
      expect(registered.type).toBe('ApplicationRegistered');
      expect(String(registered.application)).toMatch(/^ow-call:PJSIP\/1000-[0-9a-f]+$/);
      const start = conn.received.find((m) => m.type === 'StasisStart')!;
      expect(start.application).toBe(registered.application);
      expect(start.args).toEqual(['arg1']);
      expect(conn.authorization).toBeUndefined();
      expect(conn.closedWith).toBe(1000);
    }
    expect(outbound.opened).toEqual({ persistent: 0, perCall: 2 });
    expect(outbound.openConnections).toBe(0);
    // The calls' app names went with their connections: they do not pile up over many calls.
    await until(
      'per-call names forgotten',
      () => !sim.knownApplications().some((n) => n.startsWith('ow-call:')),
    );
  });

  it('per call with nobody listening: Stasis() fails and the call goes on in the dialplan', async () => {
    const app = await startRecordingApp();
    const uri = app.uri('/ari-call');
    await app.close();
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri,
          apps: ['ow-call'],
          reconnectAttempts: 2,
          reconnectIntervalMs: 10,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const varsets: string[] = [];
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelVarset' && e.variable === 'AFTER') varsets.push(String(e.value));
    });
    const id = sim.driver.placeCall({ context: 'ow', to: 'percall' });
    await until('the call to end', () => !sim.hasChannel(id));
    expect(varsets).toEqual(['FAILED']);
    expect(outbound.failedCalls).toBe(1);
  });

  it('per call, the socket dropped mid-call: re-opened with the same name and no new StasisStart, then hung up', async () => {
    const app = await startRecordingApp({ dropAfterAnswer: true });
    const sim = simulator();
    const outbound = startOutboundWebSockets(sim, {
      connections: [
        {
          connectionType: 'per_call_config',
          uri: app.uri('/ari-call'),
          apps: ['ow-call'],
          reconnectAttempts: 1,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const id = sim.driver.placeCall({ context: 'ow', to: 'percall' });
    const second = await until('the re-opened connection', () => app.accepted[1]);
    await until('ApplicationRegistered', () => second.received.length > 0);
    expect(second.received[0]!.application).toBe(app.accepted[0]!.received[0]!.application);
    await app.close(); // the application is gone for good: the re-connection fails
    await until('the call hung up', () => !sim.hasChannel(id));
    expect(second.received.some((m) => m.type === 'StasisStart')).toBe(false);
    expect(outbound.callsHungUp).toBe(1);
  });
});
