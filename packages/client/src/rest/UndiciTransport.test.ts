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
