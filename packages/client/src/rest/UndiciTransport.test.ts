import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReplayServer } from './fixtures/startReplayServer.ts';
import type { ReplayServer } from './fixtures/startReplayServer.ts';
import { UndiciTransport } from './UndiciTransport.ts';

let server: ReplayServer;

beforeEach(async () => {
  server = await startReplayServer();
});

afterEach(async () => {
  await server.close();
});

describe('UndiciTransport', () => {
  it('sends below the interface root with a JSON body and decodes the JSON reply', async () => {
    const transport = new UndiciTransport({ url: `${server.url}/`, username: 'demo', password: 'demo' });
    server.enqueue({
      status: 200,
      headers: { 'content-type': 'application/json' },
      bodyKind: 'json',
      body: [1],
    });
    const reply = await transport.send({
      method: 'PUT',
      path: '/applications/a/eventFilter',
      query: [['x', 'a b']],
      body: { allowed: [] },
    });
    expect(reply).toMatchObject({ status: 200, body: [1] });
    expect(reply.headers['content-type']).toBe('application/json');
    const [request] = server.received;
    expect(request).toMatchObject({
      method: 'PUT',
      path: '/ari/applications/a/eventFilter',
      rawQuery: 'x=a%20b',
    });
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.bodyText ?? '')).toEqual({ allowed: [] });
    await transport.close();
  });

  it('hands error statuses back as replies instead of throwing', async () => {
    const transport = new UndiciTransport({ url: server.url, username: 'demo', password: 'demo' });
    server.enqueue({
      status: 404,
      headers: { 'content-type': 'application/json' },
      bodyKind: 'json',
      body: {},
    });
    await expect(transport.send({ method: 'GET', path: '/channels/x', query: [] })).resolves.toMatchObject({
      status: 404,
    });
    await transport.close();
  });

  it('keeps credentials out of inspection output', async () => {
    const basic = new UndiciTransport({ url: server.url, username: 'demo', password: 's3cret' });
    const apiKey = new UndiciTransport({
      url: server.url,
      username: 'demo',
      password: 's3cret',
      auth: 'api_key',
    });
    const encoded = Buffer.from('demo:s3cret').toString('base64');
    for (const transport of [basic, apiKey]) {
      const shown = inspect(transport, { depth: 10, showHidden: true });
      expect(shown).not.toContain('s3cret');
      expect(shown).not.toContain(encoded);
      await transport.close();
    }
  });

  it('reads a reply that arrives in many chunks', async () => {
    const transport = new UndiciTransport({ url: server.url, username: 'demo', password: 'demo' });
    const channels = Array.from({ length: 3000 }, (_, i) => ({ id: `channel-${i}`, name: `PJSIP/${i}` }));
    server.enqueue({
      status: 200,
      headers: { 'content-type': 'application/json' },
      bodyKind: 'json',
      body: channels,
    });
    const reply = await transport.send({ method: 'GET', path: '/channels', query: [] });
    expect(reply.body).toEqual(channels);
    await transport.close();
  });

  it('hands a binary body out as a plain Uint8Array', async () => {
    const transport = new UndiciTransport({ url: server.url, username: 'demo', password: 'demo' });
    server.enqueue({
      status: 200,
      headers: { 'content-type': 'audio/wav' },
      bodyKind: 'binary',
      body: { byteLength: 8, firstBytesHex: Buffer.from('RIFF').toString('hex') },
    });
    const reply = await transport.send({ method: 'GET', path: '/recordings/stored/r1/file', query: [] });
    expect(reply.binary?.constructor).toBe(Uint8Array);
    expect([...(reply.binary ?? [])]).toEqual([...Buffer.from('RIFF'), 0, 0, 0, 0]);
    await transport.close();
  });

  it('cancels through the signal a request waiting for a connection, and one already aborted', async () => {
    const transport = new UndiciTransport({
      url: server.url,
      username: 'demo',
      password: 'demo',
      connections: 1,
    });
    server.enqueue('hang');
    const busy = transport.send({ method: 'GET', path: '/channels', query: [] }).catch((e: unknown) => e);
    for (let i = 0; i < 1000 && server.received.length === 0; i++) await new Promise((r) => setImmediate(r));
    const controller = new AbortController();
    const queued = transport.send({ method: 'GET', path: '/bridges', query: [], signal: controller.signal });
    const reason = new Error('no longer needed');
    controller.abort(reason);
    await expect(queued).rejects.toBe(reason);
    await expect(
      transport.send({ method: 'GET', path: '/bridges', query: [], signal: controller.signal }),
    ).rejects.toBe(reason);
    expect(server.received.map((r) => r.path)).toEqual(['/ari/channels']);
    await server.close();
    await busy;
    await transport.close();
  });

  it('refuses to send once closed, and closes twice without harm', async () => {
    const transport = new UndiciTransport({ url: server.url, username: 'demo', password: 'demo' });
    await transport.close();
    await transport.close();
    await expect(transport.send({ method: 'GET', path: '/channels', query: [] })).rejects.toMatchObject({
      code: 'CLOSED',
    });
    expect(server.received).toHaveLength(0);
  });
});
