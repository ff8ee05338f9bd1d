import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/VirtualClock.ts';
import { operations, pathParamNames } from '../description/index.ts';
import type { OperationSpec } from '../description/spec.ts';
import { InvalidParamsError } from '../errors/InvalidParamsError.ts';
import { RingflowError } from '../errors/RingflowError.ts';
import { createRestClient, RESOURCE_LISTING_OPERATION } from './createRestClient.ts';
import { recordedExchange } from './fixtures/recordedExchanges.ts';
import type { RecordedResponse } from './fixtures/recordedExchanges.ts';
import { startReplayServer } from './fixtures/startReplayServer.ts';
import type { ReplayServer } from './fixtures/startReplayServer.ts';
import type { RequestRecord, RestClient, RestClientOptions } from './RestClient.ts';
import type { RestTransport, TransportRequest } from './RestTransport.ts';

let server: ReplayServer;
const clients: RestClient[] = [];

function newClient(options: Partial<RestClientOptions> = {}): RestClient {
  const client = createRestClient({
    url: server.url,
    username: 'demo',
    password: 'demo',
    segment: 'asterisk',
    ...options,
  });
  clients.push(client);
  return client;
}

beforeEach(async () => {
  server = await startReplayServer();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

const noContent: RecordedResponse = { status: 204, headers: {}, bodyKind: 'empty', body: null };
const json = (status: number, body: unknown): RecordedResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  bodyKind: 'json',
  body,
});

/** Lets I/O callbacks run until `condition` holds; no timers, so nothing depends on wall time. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !condition(); i++) await new Promise<void>((r) => setImmediate(r));
  expect(condition()).toBe(true);
}

/** The error a promise rejects with; fails the test if it resolves. */
async function failureOf(promise: Promise<unknown>): Promise<RingflowError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  expect(outcome).toHaveProperty('error');
  const { error } = outcome as { error: unknown };
  expect(error).toBeInstanceOf(RingflowError);
  return error as RingflowError;
}

/** A port nobody listens on: the OS hands one out, then it is released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('parameter validation', () => {
  it('rejects a value outside an enum, naming the parameter and the allowed values, and sends nothing', async () => {
    // The real server would answer 400 "Invalid operation bogus" (recorded exchange 136).
    expect(recordedExchange(136).response.status).toBe(400);
    const client = newClient();
    const error = await failureOf(client.playback('pb-tone').control({ operation: 'bogus' as 'pause' }));
    expect(error).toBeInstanceOf(InvalidParamsError);
    const invalid = error as InvalidParamsError;
    expect(invalid.code).toBe('INVALID_PARAMS');
    expect(invalid.operation).toBe('playbacks.control');
    expect(invalid.issues).toEqual([
      expect.objectContaining({
        param: 'operation',
        kind: 'enum',
        allowed: ['restart', 'pause', 'unpause', 'reverse', 'forward'],
      }),
    ]);
    expect(invalid.message).toContain("'operation'");
    expect(invalid.message).toContain('restart, pause, unpause, reverse, forward');
    expect(server.received).toHaveLength(0);
  });

  it('rejects a missing required parameter and an unknown (misspelt) one, all at once', async () => {
    const client = newClient();
    const error = (await failureOf(
      client.events.userEvent({ eventName: 'E', aplication: 'demo-app' } as never),
    )) as InvalidParamsError;
    expect(error.issues.map((i) => [i.param, i.kind])).toEqual([
      ['application', 'missing'],
      ['aplication', 'unknown'],
    ]);
    expect(error.message).toContain("required parameter 'application'");
    expect(error.message).toContain("unknown parameter 'aplication'");
    expect(server.received).toHaveLength(0);
  });

  it('accepts parameters and operations newer than 1.10.0', async () => {
    const client = newClient();
    server.enqueue(noContent, noContent);
    await client.channel('c1').hangup({ reason_code: '21' });
    await client.channel('c1').progress();
    expect(server.received.map((r) => `${r.method} ${r.path}?${r.rawQuery}`)).toEqual([
      'DELETE /ari/channels/c1?reason_code=21',
      'POST /ari/channels/c1/progress?null',
    ]);
  });

  it('rejects an empty handle id instead of sending a malformed path', async () => {
    const client = newClient();
    const error = (await failureOf(client.channel('').answer())) as InvalidParamsError;
    expect(error.issues[0]).toMatchObject({ param: 'channelId', kind: 'missing' });
    expect(server.received).toHaveLength(0);
  });

  it('requires path parameters, also from untyped callers', async () => {
    const client = newClient();
    const untyped = client.endpoints.listByTech as (params?: object) => Promise<unknown>;
    const error = (await failureOf(untyped())) as InvalidParamsError;
    expect(error.issues).toEqual([expect.objectContaining({ param: 'tech', kind: 'missing' })]);
    expect(server.received).toHaveLength(0);
  });

  it('does not even detect the segment when a server-level call is invalid', async () => {
    const client = newClient({ segment: 'auto' });
    await failureOf(client.asterisk.getInfo({ only: ['everything' as 'build'] }));
    expect(server.received).toHaveLength(0);
  });
});

describe('timeouts, cancellation and network failures', () => {
  it('times out on the injected clock, aborts the request and leaves no timer', async () => {
    const clock = new VirtualClock();
    const records: RequestRecord[] = [];
    const client = newClient({ clock, timeoutMs: 5000, onRequest: (r) => records.push(r) });
    server.enqueue('hang');
    let settled = false;
    const pending = client.channels.list().finally(() => {
      settled = true;
    });
    const failure = failureOf(pending);
    await until(() => server.received.length === 1);
    await clock.advance(4999);
    expect(settled).toBe(false);
    await clock.advance(1);
    const error = await failure;
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('channels.list');
    expect(error.message).toContain('5000 ms');
    expect(clock.pendingTimers).toBe(0);
    expect(records).toEqual([
      expect.objectContaining({
        operation: 'channels.list',
        method: 'GET',
        path: '/channels',
        durationMs: 5000,
      }),
    ]);
    expect(records[0]?.error?.code).toBe('TIMEOUT');
    expect(records[0]).not.toHaveProperty('status');
  });

  it('lets a per-request timeout override the client default', async () => {
    const clock = new VirtualClock();
    const client = newClient({ clock, timeoutMs: 60_000 });
    server.enqueue('hang');
    const failure = failureOf(client.channel('c1').answer(undefined, { timeoutMs: 100 }));
    await until(() => server.received.length === 1);
    await clock.advance(100);
    expect((await failure).code).toBe('TIMEOUT');
  });

  it('clears the timeout timer when a reply arrives', async () => {
    const clock = new VirtualClock();
    const client = newClient({ clock });
    server.enqueue(noContent);
    await client.channel('c1').answer();
    expect(clock.pendingTimers).toBe(0);
  });

  it('is cancelled through an AbortSignal, before or while in flight', async () => {
    const client = newClient();
    const early = new AbortController();
    early.abort();
    expect((await failureOf(client.channels.list(undefined, { signal: early.signal }))).code).toBe('ABORTED');
    expect(server.received).toHaveLength(0);

    server.enqueue('hang');
    const late = new AbortController();
    const failure = failureOf(client.channels.list(undefined, { signal: late.signal }));
    await until(() => server.received.length === 1);
    late.abort();
    const error = await failure;
    expect(error.code).toBe('ABORTED');
  });

  it('reports a refused connection as NETWORK without credentials in the message', async () => {
    const port = await closedPort();
    const client = createRestClient({
      url: `http://127.0.0.1:${port}/ari`,
      username: 'demo',
      password: 's3cret-pw',
      auth: 'api_key',
      segment: 'asterisk',
    });
    clients.push(client);
    const error = await failureOf(client.channels.list());
    expect(error.code).toBe('NETWORK');
    expect(error.message).toContain('channels.list (GET /channels)');
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.message).not.toContain('s3cret-pw');
  });

  it('never leaves an unhandled rejection behind', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const clock = new VirtualClock();
      const client = newClient({ clock, timeoutMs: 1000 });
      server.enqueue('hang', json(404, { message: 'Channel not found' }), 'hang');
      const timedOut = client.channels.list().catch((e: unknown) => e);
      await until(() => server.received.length === 1);
      await clock.advance(1000);
      await timedOut;
      await client
        .channel('gone')
        .answer()
        .catch((e: unknown) => e);
      const controller = new AbortController();
      const aborted = client.channels.list(undefined, { signal: controller.signal }).catch((e: unknown) => e);
      await until(() => server.received.length === 3);
      controller.abort();
      await aborted;
      const port = await closedPort();
      const offline = createRestClient({ url: `http://127.0.0.1:${port}/ari`, username: 'u', password: 'p' });
      await offline.asterisk.ping().catch((e: unknown) => e);
      await offline.close();
      // Give late transport failures (the aborted sockets) the chance to surface.
      for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});

describe('the reply deadline counts from the request being sent on a connection', () => {
  it('does not time out a request waiting for a pooled connection, and times it out once sent', async () => {
    const clock = new VirtualClock();
    const client = newClient({ clock, connections: 1, timeoutMs: 100 });
    server.enqueue('hold', 'hang');
    const first = client.channel('c1').answer(undefined, { timeoutMs: 0 });
    await until(() => server.received.length === 1);
    let settled = false;
    const second = failureOf(
      client
        .channel('c2')
        .answer()
        .finally(() => {
          settled = true;
        }),
    );
    // Ten deadlines pass while the only connection is busy: the queued request waits on.
    await clock.advance(1000);
    expect(settled).toBe(false);
    server.release(noContent);
    await first;
    await until(() => server.received.length === 2);
    await clock.advance(99);
    expect(settled).toBe(false);
    await clock.advance(1);
    const error = await second;
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('channels.answer (POST /channels/c2/answer)');
    expect(clock.pendingTimers).toBe(0);
  });

  it('lets the caller cancel a queued request at once, without closing the busy connection', async () => {
    const client = newClient({ connections: 1 });
    server.enqueue('hold', noContent);
    const first = client.channel('c1').answer();
    await until(() => server.received.length === 1);
    const controller = new AbortController();
    const queued = failureOf(client.channel('c2').answer(undefined, { signal: controller.signal }));
    controller.abort();
    expect((await queued).code).toBe('ABORTED');
    server.release(noContent);
    await first;
    await client.channel('c3').answer();
    expect(server.received.map((r) => r.path)).toEqual([
      '/ari/channels/c1/answer',
      '/ari/channels/c3/answer',
    ]);
    expect(server.connectionCount).toBe(1);
  });
});

describe('server-level segment', () => {
  const listing = (segment: string): RecordedResponse =>
    json(200, {
      apiVersion: '1.10.0',
      swaggerVersion: '1.2',
      apis: [{ path: `/api-docs/${segment}.{format}` }, { path: '/api-docs/channels.{format}' }],
    });

  it('uses /core when the resource listing names core.{format}', async () => {
    const client = newClient({ segment: 'auto' });
    server.enqueue(listing('core'), json(200, { ping: 'pong' }), noContent);
    await expect(client.asterisk.ping()).resolves.toEqual({ ping: 'pong' });
    await client.logChannel('l1').rotateLog();
    expect(server.received.map((r) => r.path)).toEqual([
      '/ari/api-docs/resources.json',
      '/ari/core/ping',
      '/ari/core/logging/l1/rotate',
    ]);
    await expect(client.resolveSegment()).resolves.toBe('core');
  });

  it('uses /asterisk when the listing names asterisk.{format}, asking once for concurrent calls', async () => {
    const client = newClient({ segment: 'auto' });
    server.enqueue(listing('asterisk'), json(200, {}), json(200, {}));
    await Promise.all([client.core.ping(), client.asterisk.getInfo()]);
    const paths = server.received.map((r) => r.path);
    expect(paths[0]).toBe('/ari/api-docs/resources.json');
    expect(paths.slice(1).sort()).toEqual(['/ari/asterisk/info', '/ari/asterisk/ping']);
  });

  it('falls back to asterisk when the listing cannot be read, and asks again later', async () => {
    const client = newClient({ segment: 'auto' });
    server.enqueue(json(500, { message: 'busy' }), json(200, {}), listing('core'), json(200, {}));
    await client.asterisk.ping();
    await client.asterisk.ping();
    expect(server.received.map((r) => r.path)).toEqual([
      '/ari/api-docs/resources.json',
      '/ari/asterisk/ping',
      '/ari/api-docs/resources.json',
      '/ari/core/ping',
    ]);
  });

  it('takes a 404 for the listing as final: no listing, asterisk', async () => {
    const records: RequestRecord[] = [];
    const client = newClient({ segment: 'auto', onRequest: (r) => records.push(r) });
    server.enqueue(json(404, { message: 'Resource not found' }), json(200, {}), json(200, {}));
    await client.asterisk.ping();
    await client.asterisk.ping();
    expect(server.received.map((r) => r.path)).toEqual([
      '/ari/api-docs/resources.json',
      '/ari/asterisk/ping',
      '/ari/asterisk/ping',
    ]);
    expect(records[0]).toMatchObject({ operation: RESOURCE_LISTING_OPERATION, status: 404 });
  });

  it('never asks when the segment is given', async () => {
    const client = newClient({ segment: 'core' });
    server.enqueue(json(200, {}));
    await client.core.ping();
    expect(server.received.map((r) => r.path)).toEqual(['/ari/core/ping']);
  });
});

describe('authentication and connections', () => {
  it('sends a Basic Authorization header by default, and nothing in the query', async () => {
    const client = newClient();
    server.enqueue(noContent);
    await client.channel('c1').hangup({ reason: 'normal' });
    const [request] = server.received;
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('demo:demo').toString('base64')}`);
    expect(request?.rawQuery).toBe('reason=normal');
  });

  it('puts api_key=user:password last in the query with auth api_key, as the real client did', async () => {
    // Recorded exchange 777: GET /ari/channels?api_key=demo%3Ademo answered 200.
    const client = newClient({ auth: 'api_key' });
    server.enqueue(json(200, []), noContent);
    await client.channels.list();
    await client.channel('c1').hangup({ reason: 'busy' });
    expect(server.received.map((r) => r.rawQuery)).toEqual([
      'api_key=demo%3Ademo',
      'reason=busy&api_key=demo%3Ademo',
    ]);
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  it('reuses one keep-alive connection for successive requests', async () => {
    const client = newClient({ connections: 1 });
    for (let i = 0; i < 5; i++) server.enqueue(json(200, []));
    for (let i = 0; i < 5; i++) await client.channels.list();
    expect(server.received).toHaveLength(5);
    expect(server.connectionCount).toBe(1);
  });

  it('opens no more connections than allowed, however many requests run at once', async () => {
    const client = newClient({ connections: 2 });
    for (let i = 0; i < 8; i++) server.enqueue(json(200, []));
    await Promise.all(Array.from({ length: 8 }, () => client.channels.list()));
    expect(server.received).toHaveLength(8);
    expect(server.connectionCount).toBeLessThanOrEqual(2);
  });

  it('refuses requests after close', async () => {
    const client = newClient();
    await client.close();
    const error = await failureOf(client.channels.list());
    expect(error.code).toBe('CLOSED');
    expect(server.received).toHaveLength(0);
  });
});

describe('replies', () => {
  it('keeps a non-JSON error body as truncated text', async () => {
    // The HTML page the real server sends for non-ARI requests (recorded exchange 845).
    const html = recordedExchange(845).response;
    const long: RecordedResponse = { ...html, body: `${String(html.body)}${'x'.repeat(1000)}` };
    const client = newClient();
    server.enqueue(long);
    const error = await failureOf(client.channels.list());
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status: 426 });
    const message = (error as unknown as { serverMessage: string }).serverMessage;
    expect(message).toContain('426 Upgrade Required');
    expect(message.length).toBeLessThanOrEqual(301);
  });

  it('fails with PROTOCOL when a success reply claims JSON but is not', async () => {
    const client = newClient();
    server.enqueue({
      status: 200,
      headers: { 'content-type': 'application/json' },
      bodyKind: 'text',
      body: '{oops',
    });
    const error = await failureOf(client.channels.list());
    expect(error.code).toBe('PROTOCOL');
  });

  it('reports every completed request once to onRequest, and survives a throwing observer', async () => {
    const clock = new VirtualClock(0);
    const records: RequestRecord[] = [];
    const client = newClient({
      clock,
      onRequest: (r) => {
        records.push(r);
        throw new Error('observer bug');
      },
    });
    server.enqueue(json(200, []), json(404, { message: 'Channel not found' }));
    await client.channels.list();
    await failureOf(client.channel('x').get());
    await failureOf(client.channel('x').mute({ direction: 'sideways' as 'in' }));
    expect(records.map(({ error, ...r }) => ({ ...r, code: error?.code }))).toEqual([
      {
        operation: 'channels.list',
        method: 'GET',
        path: '/channels',
        status: 200,
        durationMs: 0,
        code: undefined,
      },
      {
        operation: 'channels.get',
        method: 'GET',
        path: '/channels/x',
        status: 404,
        durationMs: 0,
        code: 'HTTP_ERROR',
      },
    ]);
  });
});

describe('the operation table', () => {
  /** A transport that records requests and answers 200 with an empty object. */
  function recordingTransport(sent: TransportRequest[]): RestTransport {
    return {
      send: async (request) => {
        sent.push(request);
        return { status: 200, headers: {}, body: {} };
      },
    };
  }

  /** Minimal valid parameters for an operation: every required or path one, with a value of its type. */
  function requiredParams(op: OperationSpec): Record<string, unknown> {
    const params: Record<string, unknown> = {};
    for (const p of op.params) {
      if (!p.required && p.in !== 'path') continue;
      if (p.enum) params[p.name] = p.enum[0];
      else if (p.type === 'int' || p.type === 'long' || p.type === 'double') params[p.name] = 1;
      else if (p.type === 'boolean') params[p.name] = true;
      else if (p.type === 'containers') params[p.name] = p.name === 'fields' ? [] : { a: '1' };
      else if (p.type === 'object') params[p.name] = {};
      else params[p.name] = `${p.name}-1`;
    }
    return params;
  }

  it('offers every REST operation of the description as a method sending its method and path', async () => {
    const sent: TransportRequest[] = [];
    const client = createRestClient({
      url: 'http://in-process/ari',
      username: 'u',
      password: 'p',
      segment: 'asterisk',
      transport: recordingTransport(sent),
    });
    const rest = operations.filter((op) => !op.upgrade);
    for (const op of rest) {
      const api = (client as unknown as Record<string, Record<string, unknown>>)[op.resource];
      const method = api?.[op.name];
      expect(typeof method, `${op.resource}.${op.name}`).toBe('function');
      await (method as (p: unknown) => Promise<unknown>)(requiredParams(op));
      const request = sent.at(-1)!;
      expect(request.method).toBe(op.method);
      const expected = op.path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}-1`);
      expect(request.path, `${op.resource}.${op.name}`).toBe(expected);
    }
    expect(sent).toHaveLength(rest.length);
    expect(client.core).toBe(client.asterisk);
    expect('eventWebsocket' in client.events).toBe(false);
  });

  it('binds handles to their ids and offers exactly the operations whose path names them', () => {
    const client = createRestClient({
      url: 'http://in-process/ari',
      username: 'u',
      password: 'p',
      transport: recordingTransport([]),
    });
    const endpoint = client.endpoint('PJSIP', 'alice');
    expect({ tech: endpoint.tech, resource: endpoint.resource }).toEqual({
      tech: 'PJSIP',
      resource: 'alice',
    });
    const channel = client.channel('c1') as unknown as Record<string, unknown>;
    const expected = operations
      .filter(
        (op) => op.resource === 'channels' && !op.upgrade && pathParamNames(op.path).includes('channelId'),
      )
      .map((op) => op.name)
      .sort();
    const offered = Object.keys(Object.getPrototypeOf(channel)).sort();
    expect(offered).toEqual(expected);
    expect(offered).toContain('answer');
    expect(offered).not.toContain('list');
    expect(client.module('res_musiconhold.so').moduleName).toBe('res_musiconhold.so');
    expect(client.sound('hello-world').soundId).toBe('hello-world');
  });

  it('sends any operation by key through request()', async () => {
    const sent: TransportRequest[] = [];
    const client = createRestClient({
      url: 'http://in-process/ari',
      username: 'u',
      password: 'p',
      transport: recordingTransport(sent),
    });
    await client.request('channels.answer', { channelId: 'c1' });
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/channels/c1/answer' });
    expect((await failureOf(client.request('channels.nope'))).code).toBe('CONFIG');
    expect((await failureOf(client.request('events.eventWebsocket', { app: 'a' }))).code).toBe('CONFIG');
  });
});

describe('options', () => {
  it.each([
    [{ url: 'localhost:8088' }, 'url must'],
    [{ url: 'http://demo:demo@127.0.0.1:8088/ari' }, 'must not contain credentials'],
    [{ auth: 'digest' }, "auth must be 'basic' or 'api_key'"],
    [{ segment: 'ari' }, 'segment must be'],
    [{ timeoutMs: -1 }, 'timeoutMs must be'],
    [{ connections: 0 }, 'connections must be'],
  ])('refuses %o with a CONFIG error that says what to fix', (bad, text) => {
    const options = {
      url: 'http://127.0.0.1:8088/ari',
      username: 'demo',
      password: 'demo',
      ...bad,
    } as RestClientOptions;
    expect(() => createRestClient(options)).toThrow(expect.objectContaining({ code: 'CONFIG' }));
    expect(() => createRestClient(options)).toThrow(text);
  });
});
