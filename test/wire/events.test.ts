import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '@ringflow/client';
import { type WireServer, startWireServer } from '@ringflow/simulator';
import { FakeServer } from './fakeServer.ts';
import { DEMO, EventClient, VIEWER, refusedHandshake, users } from './wireClient.ts';

let fake: FakeServer;
let wire: WireServer;
let ws: string;
const clock = new VirtualClock(Date.UTC(2026, 10, 22, 3, 47, 51, 788));

beforeAll(async () => {
  fake = new FakeServer();
  wire = await startWireServer(fake, { users, clock, serverName: 'Test/1.0' });
  ws = `${wire.url.replace(/^http/, 'ws')}/events`;
});
afterAll(() => wire.close());

describe('event stream handshake', () => {
  it.each([
    ['a wrong api_key', '?app=demo-app&api_key=demo:wrong', {}],
    ['no credentials', '?app=demo-app', {}],
    [
      'a wrong Basic header',
      '?app=demo-app',
      { Authorization: `Basic ${Buffer.from('demo:x').toString('base64')}` },
    ],
  ])('refuses %s with 401 and the Basic challenge', async (_name, query, headers) => {
    const res = await refusedHandshake(`${ws}${query}`, headers);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="Asterisk REST Interface"');
    expect(JSON.parse(res.body)).toEqual({ message: 'Authentication required' });
  });

  it.each([
    ['a missing app', '?api_key=demo:demo'],
    ['an empty app', '?app=&api_key=demo:demo'],
    ['an app list of commas', '?app=,,&api_key=demo:demo'],
  ])('refuses %s with the 400 HTML page', async (_name, query) => {
    const res = await refusedHandshake(`${ws}${query}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.body).toContain('<p>HTTP request is missing param: [app]</p>');
    expect(res.body).toContain('<address>Test/1.0</address>');
  });

  it("passes on the core's own refusal as the handshake answer", async () => {
    const res = await refusedHandshake(`${ws}?app=refused-app&api_key=demo:demo`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ message: 'Refused by the fake' });
  });

  it('answers 500 when the core throws while connecting, and keeps serving', async () => {
    const res = await refusedHandshake(`${ws}?app=throwing-app&api_key=demo:demo`);
    expect(res.status).toBe(500);
    const client = await EventClient.open(`${ws}?app=after-throw&api_key=demo:demo`);
    await client.close();
  });

  it('releases the connection when the upgrade request itself is broken', async () => {
    const before = fake.connections.length;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(wire.port, '127.0.0.1', () =>
        socket.write(
          'GET /ari/events?app=broken-app&api_key=demo:demo HTTP/1.1\r\nHost: x\r\n' +
            'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n',
        ),
      );
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const connection = fake.connections[before]!;
    expect(connection.apps).toEqual(['broken-app']);
    // The close travels over a real socket: poll generously, the machine may be busy.
    await expect.poll(() => connection.closed, { timeout: 5000 }).toBe(true);
  });

  it('refuses upgrades anywhere but /ari/events', async () => {
    const base = wire.url.replace(/^http/, 'ws');
    expect((await refusedHandshake(`${base}/channels?api_key=demo:demo`)).status).toBe(400);
    expect((await refusedHandshake(`${base.replace(/\/ari$/, '')}/ws`)).status).toBe(404);
  });
});

describe('event stream', () => {
  it('connects with api_key, registers the comma separated apps, and reads subscribeAll', async () => {
    const before = fake.connections.length;
    const client = await EventClient.open(
      `${ws}?app=multi-one,multi-two&subscribeAll=true&api_key=demo:demo`,
    );
    const connection = fake.connections[before]!;
    expect(connection.apps).toEqual(['multi-one', 'multi-two']);
    expect(connection.subscribeAll).toBe(true);
    await client.close();
  });

  it('connects with a Basic header (a read-only user too) and defaults subscribeAll to false', async () => {
    for (const auth of [DEMO, VIEWER]) {
      const before = fake.connections.length;
      const client = await EventClient.open(`${ws}?app=plain-app`, { Authorization: auth });
      expect(fake.connections[before]).toMatchObject({ apps: ['plain-app'], subscribeAll: false });
      await client.close();
    }
  });

  it('sends events as JSON text frames, in order, including those raised during the handshake', async () => {
    const client = await EventClient.open(`${ws}?app=demo-app&api_key=demo:demo`);
    fake.emit('demo-app', { type: 'StasisStart', args: ['a'], channel: { id: 'c1' } });
    fake.emit('demo-app', { type: 'ChannelDtmfReceived', digit: '5' });
    fake.emit('other-app', { type: 'StasisStart' });
    expect(await client.next()).toEqual({
      type: 'ApplicationRegistered',
      application: 'demo-app',
      asterisk_id: 'fa:ke',
    });
    expect(await client.next()).toMatchObject({ type: 'StasisStart', application: 'demo-app', args: ['a'] });
    expect(await client.next()).toMatchObject({ type: 'ChannelDtmfReceived', digit: '5' });
    await client.close();
    expect(client.messages).toEqual([]);
  });

  it("unregisters the connection's apps when the socket closes", async () => {
    const before = fake.connections.length;
    const client = await EventClient.open(`${ws}?app=closing-app&api_key=demo:demo`);
    const connection = fake.connections[before]!;
    expect(connection.closed).toBe(false);
    expect(wire.eventConnections).toBeGreaterThan(0);
    await client.close();
    // The close travels over a real socket: poll generously, the machine may be busy.
    await expect.poll(() => connection.closed, { timeout: 5000 }).toBe(true);
  });

  it('answers pings', async () => {
    const client = await EventClient.open(`${ws}?app=ping-app&api_key=demo:demo`);
    const pong = new Promise<string>((resolve) => client.ws.once('pong', (data) => resolve(String(data))));
    client.ws.ping('are-you-there');
    expect(await pong).toBe('are-you-there');
    await client.close();
  });
});

describe('REST requests over the event stream', () => {
  async function exchange(client: EventClient, message: unknown): Promise<Record<string, unknown>> {
    client.send(message);
    for (;;) {
      const reply = await client.next();
      if (reply.type === 'RESTResponse') return reply;
    }
  }

  it('answers a RESTRequest with a RESTResponse event, as the traced server does', async () => {
    const client = await EventClient.open(`${ws}?app=demo-app&api_key=demo:demo`);
    const reply = await exchange(client, {
      type: 'RESTRequest',
      transaction_id: 'tx-1',
      request_id: 'req-1',
      method: 'GET',
      uri: 'asterisk/ping',
    });
    expect(reply).toEqual({
      type: 'RESTResponse',
      transaction_id: 'tx-1',
      request_id: 'req-1',
      status_code: 200,
      reason_phrase: 'OK',
      uri: 'asterisk/ping',
      content_type: 'application/json',
      message_body: '{"ping":"pong","timestamp":"2026-11-22T03:47:12.248+0000","asterisk_id":"fa:ke"}',
      application: 'demo-app',
      timestamp: '2026-11-22T03:47:51.788+0000',
      asterisk_id: 'fa:ke',
    });
    await client.close();
  });

  it('takes the query from the uri and from query_strings, and the body from message_body', async () => {
    const client = await EventClient.open(`${ws}?app=demo-app&api_key=demo:demo`);
    const reply = await exchange(client, {
      type: 'RESTRequest',
      transaction_id: 'tx-2',
      request_id: 'req-4',
      method: 'POST',
      uri: 'channels?endpoint=Local/1',
      query_strings: [{ name: 'app', value: 'demo-app' }],
      content_type: 'application/json',
      message_body: '{"variables":{"a":"b"}}',
    });
    expect(reply).toMatchObject({ status_code: 200, uri: 'channels' });
    expect(JSON.parse(reply.message_body as string)).toEqual({
      echo: { endpoint: 'Local/1', app: 'demo-app' },
      body: { variables: { a: 'b' } },
    });
    const empty = await exchange(client, {
      type: 'RESTRequest',
      request_id: 'r',
      method: 'DELETE',
      uri: 'channels/abc',
    });
    expect(empty).toMatchObject({ status_code: 204, reason_phrase: 'No Content' });
    expect(empty).not.toHaveProperty('message_body');
    await client.close();
  });

  it('refuses what is not a request the way the traced server does', async () => {
    const client = await EventClient.open(`${ws}?app=demo-app&api_key=demo:demo`);
    expect(await exchange(client, '{not json')).toMatchObject({
      status_code: 400,
      reason_phrase: 'Failed to parse request message JSON',
      transaction_id: '',
      request_id: '',
    });
    expect(await exchange(client, { type: 'NotARequest', foo: 1 })).toMatchObject({
      status_code: 400,
      reason_phrase: 'Bad request',
      message_body: '{"message":"Unknown request type."}',
    });
    expect(
      await exchange(client, {
        type: 'RESTRequest',
        transaction_id: 'tx-3',
        request_id: 'req-6',
        method: 'GET',
      }),
    ).toMatchObject({
      transaction_id: 'tx-3',
      request_id: 'req-6',
      status_code: 400,
      message_body: `{"message":"Empty or missing 'uri' property."}`,
    });
    expect(
      await exchange(client, { type: 'RESTRequest', request_id: 'r', method: 'GET', uri: '/channels' }),
    ).toMatchObject({
      status_code: 405,
      reason_phrase: 'Method Not Allowed',
      uri: '/channels',
      message_body: '{"message":"Invalid method"}',
    });
    await client.close();
  });

  it('applies the read-only rule of the account that opened the socket', async () => {
    const client = await EventClient.open(`${ws}?app=demo-app`, { Authorization: VIEWER });
    const reply = await exchange(client, {
      type: 'RESTRequest',
      request_id: 'r',
      method: 'POST',
      uri: 'channels',
    });
    expect(reply).toMatchObject({ status_code: 403, message_body: '{"message":"Write access denied"}' });
    expect(
      await exchange(client, { type: 'RESTRequest', request_id: 'r', method: 'GET', uri: 'channels' }),
    ).toMatchObject({
      status_code: 200,
    });
    await client.close();
  });
});

describe('close', () => {
  it('closes open event sockets with 1001 and stops listening', async () => {
    const other = await startWireServer(new FakeServer(), { users });
    const client = await EventClient.open(
      `${other.url.replace(/^http/, 'ws')}/events?app=a&api_key=demo:demo`,
    );
    await other.close();
    expect((await client.closedByServer()).code).toBe(1001);
    await expect(
      EventClient.open(`${other.url.replace(/^http/, 'ws')}/events?app=a&api_key=demo:demo`),
    ).rejects.toThrow();
  });
});

describe('a client that stops reading', () => {
  it('is dropped once its queue of unsent events passes the limit, and its apps unregistered', async () => {
    const server = new FakeServer();
    const small = await startWireServer(server, { users, maxQueuedEventBytes: 64 * 1024 });
    try {
      // A raw socket that completes the handshake and then never reads another byte.
      const socket = connect(small.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        'GET /ari/events?app=stalled&api_key=demo:demo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n' +
          'Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.pause();
      await expect.poll(() => small.eventConnections, { timeout: 5000 }).toBe(1);
      const connection = server.connections[0]!;
      const padding = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 2000 && !connection.closed; i++) {
        server.emit('stalled', { type: 'ChannelVarset', variable: 'PAD', value: padding });
        if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await expect.poll(() => connection.closed, { timeout: 5000 }).toBe(true);
      expect(small.eventConnections).toBe(0);
      socket.destroy();
    } finally {
      await small.close();
    }
  });
});
