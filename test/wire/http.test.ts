import { connect } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type WireServer, startWireServer } from '@ringflow/simulator';
import { FakeServer } from './fakeServer.ts';
import { DEMO, VIEWER, users } from './wireClient.ts';

let fake: FakeServer;
let wire: WireServer;
const errors: unknown[] = [];

beforeAll(async () => {
  fake = new FakeServer();
  wire = await startWireServer(fake, {
    users,
    port: 0,
    serverName: 'Test/1.0',
    onError: (e) => errors.push(e),
  });
});
afterAll(() => wire.close());
beforeEach(() => {
  fake.requests.length = 0;
  errors.length = 0;
});

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await request(`${wire.url.replace(/\/ari$/, '')}${path}`, {
    method: method as 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as unknown };
}

/** Sends raw bytes and returns the raw answer (for request targets no HTTP client would send). */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(wire.port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('startWireServer', () => {
  it('listens on loopback at the port the OS picked and serves the interface at /ari', () => {
    expect(wire.host).toBe('127.0.0.1');
    expect(wire.port).toBeGreaterThan(0);
    expect(wire.url).toBe(`http://127.0.0.1:${wire.port}/ari`);
  });
});

describe('authentication', () => {
  it('accepts a Basic header and an api_key query parameter, and keeps the key from the core', async () => {
    expect((await call('GET', '/ari/channels', { Authorization: DEMO })).status).toBe(200);
    const viaKey = await call('GET', '/ari/channels?api_key=demo%3Ademo&foo=bar');
    expect(viaKey.status).toBe(200);
    expect(fake.requests.at(-1)?.query).toEqual({ foo: 'bar' });
  });

  it.each([
    ['a wrong password', { Authorization: `Basic ${Buffer.from('demo:wrong').toString('base64')}` }, ''],
    ['an unknown user', { Authorization: `Basic ${Buffer.from('nobody:demo').toString('base64')}` }, ''],
    ['no credentials', {}, ''],
    ['a wrong api_key', {}, '?api_key=demo:wrong'],
    ['a malformed header', { Authorization: 'Bearer abc' }, ''],
  ])(
    'answers %s with 401 and the Basic challenge, without reaching the core',
    async (_name, headers, query) => {
      const res = await call('GET', `/ari/channels${query}`, headers);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="Asterisk REST Interface"');
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.json()).toEqual({ message: 'Authentication required' });
      expect(fake.requests).toHaveLength(0);
    },
  );

  it('lets a read-only user read but answers 403 to anything that writes', async () => {
    expect((await call('GET', '/ari/channels', { Authorization: VIEWER })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await call(method, '/ari/channels', { Authorization: VIEWER });
      expect(res.status, method).toBe(403);
      expect(res.json()).toEqual({ message: 'Write access denied' });
    }
    expect(fake.requests.map((r) => r.method)).toEqual(['GET']);
    const options = await call('OPTIONS', '/ari/channels', { Authorization: VIEWER });
    expect(options.status).toBe(204);
  });
});

describe('pages outside the REST interface', () => {
  it('answers unknown paths with the 404 HTML page', async () => {
    for (const path of ['/', '/httpstatus', '/arix', '/static/x.html']) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toBe('text/html');
      expect(res.text).toBe(
        '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\r\n<html><head>\r\n<title>404 Not Found</title>\r\n' +
          '</head><body>\r\n<h1>Not Found</h1>\r\n<p>The requested URL was not found on this server.</p>\r\n' +
          '<hr />\r\n<address>Test/1.0</address>\r\n</body></html>\r\n',
      );
    }
  });

  it('answers the bare interface root with 405 and Allow: OPTIONS', async () => {
    const res = await call('GET', '/ari', { Authorization: DEMO });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('OPTIONS');
    expect(res.json()).toEqual({ message: 'Invalid method' });
  });

  it('answers a plain GET of the event stream with 426 Upgrade Required', async () => {
    const res = await call('GET', '/ari/events?app=demo-app', { Authorization: DEMO });
    expect(res.status).toBe(426);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.text).toContain('<title>426 Upgrade Required</title>');
    expect(fake.requests).toHaveLength(0);
  });

  it('sends the Server and Cache-Control headers on every answer', async () => {
    for (const path of ['/', '/ari/channels']) {
      const res = await call('GET', path, { Authorization: DEMO });
      expect(res.headers.server).toBe('Test/1.0');
      expect(res.headers['cache-control']).toBe('no-cache, no-store');
    }
  });
});

describe('passing requests to the core', () => {
  it('passes /core/... and /asterisk/... through unchanged, without the interface root', async () => {
    expect((await call('GET', '/ari/core/ping', { Authorization: DEMO })).json()).toMatchObject({
      ping: 'pong',
    });
    expect((await call('GET', '/ari/asterisk/ping', { Authorization: DEMO })).json()).toMatchObject({
      ping: 'pong',
    });
    expect(fake.requests.map((r) => r.path)).toEqual(['/core/ping', '/asterisk/ping']);
  });

  it('decodes the query; a repeated key keeps its last value', async () => {
    await call('GET', '/ari/channels?a=1&a=2&b=x%20y&c=%2Fslash', { Authorization: DEMO });
    expect(fake.requests[0]?.query).toEqual({ a: '2', b: 'x y', c: '/slash' });
  });

  it('parses a JSON body, and refuses one it cannot parse before anything else, as the real server does', async () => {
    const json = { 'Content-Type': 'application/json', Authorization: DEMO };
    const ok = await call('POST', '/ari/channels?endpoint=Local/1', json, '{"variables":{"A":"1"}}');
    expect(ok.json()).toEqual({ echo: { endpoint: 'Local/1' }, body: { variables: { A: '1' } } });
    fake.requests.length = 0;
    // Invalid text, or JSON that is not an object or array; whatever the method, route or credentials.
    for (const [method, path, headers, body] of [
      ['POST', '/ari/channels', json, '{bad json'],
      ['PATCH', '/ari/channels', json, 'null'],
      ['OPTIONS', '/ari/nonexistent', json, '1'],
      ['PUT', '/ari/api-docs/resources.json', json, '{'],
      ['POST', '/ari/channels', { 'Content-Type': 'application/json' }, '"x"'],
    ] as const) {
      const bad = await call(method, path, headers, body);
      expect([method, path, bad.status, bad.json()]).toEqual([
        method,
        path,
        400,
        { message: 'Error parsing request body' },
      ]);
    }
    expect(fake.requests).toHaveLength(0);
    // A body that is not JSON by its content type is not read as JSON.
    const text = await call(
      'POST',
      '/ari/channels?endpoint=Local/1',
      { 'Content-Type': 'text/plain', Authorization: DEMO },
      '{',
    );
    expect(text.status).toBe(200);
  });

  it('refuses a request line longer than the real server reads (400, its HTML page) and closes the connection', async () => {
    const long = `/ari/channels?x=${'a'.repeat(4096)}`;
    const res = await call('GET', long, { Authorization: DEMO });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.text).toContain('<p>Request line too long</p>');
    expect(res.headers.connection).toBe('close');
    const justFits = `/ari/channels?x=${'a'.repeat(4095 - 'GET  HTTP/1.1\r\n'.length - '/ari/channels?x='.length)}`;
    expect((await call('GET', justFits, { Authorization: DEMO })).status).toBe(200);
    expect((await call('GET', `${justFits}a`, { Authorization: DEMO })).status).toBe(400);
    // Beyond Node's own 16 KiB limit of a request head too.
    const huge = await call('GET', `/ari/channels?x=${'a'.repeat(20_000)}`, { Authorization: DEMO });
    expect([huge.status, huge.text.includes('<p>Request line too long</p>')]).toEqual([400, true]);
  });

  it('treats form fields as parameters, the query winning', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: DEMO };
    const res = await call('POST', '/ari/channels?app=q', form, 'app=f&variables=x');
    expect(res.json()).toEqual({ echo: { app: 'q', variables: 'x' }, body: null });
  });

  it('sends binary replies with their content type, and empty ones with no body', async () => {
    const file = await request(`${wire.url}/recordings/stored/t1/file`, { headers: { Authorization: DEMO } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/wave');
    expect([...new Uint8Array(await file.body.arrayBuffer())]).toEqual([82, 73, 70, 70, 0, 1]);
    const hangup = await call('DELETE', '/ari/channels/abc', { Authorization: DEMO });
    expect(hangup.status).toBe(204);
    expect(hangup.text).toBe('');
    expect(hangup.headers['content-type']).toBeUndefined();
  });

  it('adds the Allow header to a 405 of the core that has none', async () => {
    const res = await call('PUT', '/ari/channels', { Authorization: DEMO });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('OPTIONS,GET,POST');
  });

  it('answers 500 with a message when the core throws, reports it, and keeps serving', async () => {
    const res = await call('GET', '/ari/boom', { Authorization: DEMO });
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal error in the simulator: core exploded' });
    expect(errors).toHaveLength(1);
    expect((await call('GET', '/ari/channels', { Authorization: DEMO })).status).toBe(200);
  });

  it('turns a SimError that escaped the core into its response', async () => {
    const res = await call('POST', '/ari/refused', { Authorization: DEMO });
    expect(res.status).toBe(409);
    expect(res.json()).toEqual({ message: 'Refused by rule' });
    expect(errors).toHaveLength(0);
  });

  it('answers 413 to a body over the limit', async () => {
    const small = await startWireServer(fake, { users, maxBodyBytes: 10 });
    try {
      const res = await request(`${small.url}/channels`, {
        method: 'POST',
        headers: { Authorization: DEMO, 'Content-Type': 'application/json' },
        body: JSON.stringify({ variables: { long: 'x'.repeat(100) } }),
      });
      expect(res.statusCode).toBe(413);
      expect(await res.body.json()).toEqual({ message: 'Request body is larger than 10 bytes' });
    } finally {
      await small.close();
    }
  });

  it('survives request targets no client should send', async () => {
    expect(await raw('GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw('GET //evil/ari/channels HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 404 /,
    );
    expect(await raw('BROKEN\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    const absolute = await raw(
      `GET http://127.0.0.1/ari/channels HTTP/1.1\r\nHost: x\r\nAuthorization: ${DEMO}\r\nConnection: close\r\n\r\n`,
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('CORS', () => {
  it('answers with CORS headers only when the request header is spelled exactly Origin', async () => {
    const exact = await raw(
      `GET /ari/asterisk/ping HTTP/1.1\r\nHost: x\r\nOrigin: http://example.com\r\nAuthorization: ${DEMO}\r\nConnection: close\r\n\r\n`,
    );
    expect(exact).toMatch(/\r\nAccess-Control-Allow-Origin: http:\/\/example\.com\r\n/);
    expect(exact).toMatch(/\r\nAccess-Control-Allow-Credentials: true\r\n/);
    const lower = await raw(
      `GET /ari/asterisk/ping HTTP/1.1\r\nHost: x\r\norigin: http://example.com\r\nAuthorization: ${DEMO}\r\nConnection: close\r\n\r\n`,
    );
    expect(lower).toMatch(/^HTTP\/1\.1 200 /);
    expect(lower.toLowerCase()).not.toContain('access-control-');
  });

  it('requires credentials for a preflight, still sending the CORS headers with the 401', async () => {
    const res = await raw(
      'OPTIONS /ari/channels HTTP/1.1\r\nHost: x\r\nOrigin: http://example.com\r\n' +
        'Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: Authorization\r\nConnection: close\r\n\r\n',
    );
    expect(res).toMatch(/^HTTP\/1\.1 401 /);
    expect(res).toMatch(/\r\nAccess-Control-Allow-Origin: http:\/\/example\.com\r\n/);
    expect(res).toMatch(/\r\nWWW-Authenticate: Basic realm="Asterisk REST Interface"\r\n/);
  });

  it('answers an authenticated preflight with 204, the allowed methods and the requested headers', async () => {
    const res = await raw(
      `OPTIONS /ari/channels HTTP/1.1\r\nHost: x\r\nOrigin: http://example.com\r\nAuthorization: ${DEMO}\r\n` +
        'Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: Authorization\r\nConnection: close\r\n\r\n',
    );
    expect(res).toMatch(/^HTTP\/1\.1 204 /);
    expect(res).toMatch(/\r\nAllow: OPTIONS,GET,POST\r\n/);
    expect(res).toMatch(/\r\nAccess-Control-Allow-Methods: OPTIONS,GET,POST\r\n/);
    expect(res).toMatch(/\r\nAccess-Control-Allow-Headers: Authorization\r\n/);
    expect(res).toMatch(/\r\nAccess-Control-Allow-Origin: http:\/\/example\.com\r\n/);
  });

  it("takes the methods of a sub-resource from the core's 405, and sends no preflight headers without Origin", async () => {
    const res = await call('OPTIONS', '/ari/channels/abc/play', { Authorization: DEMO });
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('OPTIONS,POST');
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['OPTIONS /channels/abc/play']);
  });

  it('answers OPTIONS on an unknown resource with the 404 of the core', async () => {
    const res = await call('OPTIONS', '/ari/nonexistent', { Authorization: DEMO });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ message: 'Resource not found' });
  });
});

describe('Swagger documents', () => {
  it('serves the resource listing with the base path the client used', async () => {
    const res = await call('GET', '/ari/api-docs/resources.json', { Authorization: DEMO });
    expect(res.status).toBe(200);
    const listing = res.json() as { basePath: string; swaggerVersion: string; apis: { path: string }[] };
    expect(listing.basePath).toBe(wire.url);
    expect(listing.swaggerVersion).toBe('1.2');
    expect(listing.apis.map((a) => a.path)).toContain('/api-docs/channels.{format}');
  });

  it('serves one declaration per resource and 404 for an unknown one', async () => {
    const channels = (await call('GET', '/ari/api-docs/channels.json', { Authorization: DEMO })).json() as {
      resourcePath: string;
      basePath: string;
      models: Record<string, unknown>;
    };
    expect(channels.resourcePath).toBe('/api-docs/channels.{format}');
    expect(channels.basePath).toBe(wire.url);
    expect(channels.models.Channel).toBeDefined();
    const missing = await call('GET', '/ari/api-docs/nonexistent.json', { Authorization: DEMO });
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ message: 'Resource not found' });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses every method but GET on the documents, OPTIONS included, with 405 Unsupported method', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      for (const path of ['/ari/api-docs/resources.json', '/ari/api-docs/nonexistent.json']) {
        const res = await call(method, path, { Authorization: DEMO });
        expect([method, path, res.status, res.json()]).toEqual([
          method,
          path,
          405,
          { message: 'Unsupported method' },
        ]);
      }
    }
    expect((await call('HEAD', '/ari/api-docs/resources.json', { Authorization: DEMO })).status).toBe(405);
    expect(fake.requests).toHaveLength(0);
  });

  it('requires credentials for the documents too', async () => {
    expect((await call('GET', '/ari/api-docs/resources.json')).status).toBe(401);
  });
});
