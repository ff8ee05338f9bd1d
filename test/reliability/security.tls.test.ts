import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  createEventStream,
  createRestClient,
  ErrorCode,
  type EventStreamProblem,
  RingflowError,
  type TlsOptions,
  WsTransport,
} from '@ringflow/client';
import { createApplication } from '@ringflow/runtime';
import { pino } from 'pino';
import { firstValueFrom, filter } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { ivrCallMachine } from './ivrCallMachine.ts';
import { makeTestCertificates, type TestCertificates } from './makeTestCertificates.ts';

/** What the loopback TLS server saw of one request or upgrade. */
interface Seen {
  readonly url: string;
  readonly authorization: string | undefined;
  /** Common name of the client certificate, when one was presented and verified. */
  readonly clientCn: string | undefined;
}

/**
 * A loopback https + wss server answering `/ari/asterisk/ping` and accepting `/ari/events`
 * (sending one event), recording what each request carried.
 */
async function startTlsServer(options: { cert: string; key: string; requireClientCa?: string }) {
  const seen: Seen[] = [];
  const clientCn = (socket: TLSSocket) => {
    const peer = socket.getPeerCertificate();
    return socket.authorized && peer?.subject ? String(peer.subject.CN) : undefined;
  };
  const server: Server = createServer(
    {
      cert: options.cert,
      key: options.key,
      ...(options.requireClientCa
        ? { ca: options.requireClientCa, requestCert: true, rejectUnauthorized: true }
        : {}),
    },
    (req, res) => {
      seen.push({
        url: req.url ?? '',
        authorization: req.headers.authorization,
        clientCn: clientCn(req.socket as TLSSocket),
      });
      if (req.url?.startsWith('/ari/asterisk/ping')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ ping: 'pong', timestamp: '2026-01-01T00:00:00.000+0000', asterisk_id: 'tls-pbx' }),
        );
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Resource not found"}');
      }
    },
  );
  const wss = new WebSocketServer({ server, path: '/ari/events' });
  wss.on('connection', (socket, req) => {
    seen.push({
      url: req.url ?? '',
      authorization: req.headers.authorization,
      clientCn: clientCn(req.socket as TLSSocket),
    });
    socket.send(
      JSON.stringify({
        type: 'DeviceStateChanged',
        timestamp: 't',
        application: 'ivr',
        asterisk_id: 'tls-pbx',
        device_state: { name: 'x', state: 'INUSE' },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    port,
    url: `https://127.0.0.1:${port}/ari`,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let pki: TestCertificates;
beforeAll(() => {
  pki = makeTestCertificates();
});

async function ping(url: string, tls: TlsOptions | undefined) {
  const client = createRestClient({
    url,
    username: 'ringflow',
    password: 'Tls-Secret-1',
    segment: 'asterisk',
    ...(tls ? { tls } : {}),
  });
  try {
    return await client.asterisk.ping();
  } finally {
    await client.close();
  }
}

async function firstEventOrProblem(url: string, tls: TlsOptions | undefined) {
  const stream = createEventStream({
    url,
    apps: ['ivr'],
    username: 'ringflow',
    password: 'Tls-Secret-1',
    backoff: { initialDelayMs: 50, maxDelayMs: 100 },
    ...(tls ? { tls } : {}),
  });
  try {
    return await Promise.race([
      firstValueFrom(stream.events$).then((event) => ({ event })),
      firstValueFrom(
        stream.problems$.pipe(filter((p: EventStreamProblem) => p.kind === 'transport-error')),
      ).then((problem) => ({ problem })),
    ]);
  } finally {
    await stream.close();
  }
}

async function rejection(work: Promise<unknown>): Promise<RingflowError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RingflowError);
  return error as RingflowError;
}

describe('TLS: https and wss with a CA, client certificates and a server name', () => {
  let plain: Awaited<ReturnType<typeof startTlsServer>>;
  let mutual: Awaited<ReturnType<typeof startTlsServer>>;
  let named: Awaited<ReturnType<typeof startTlsServer>>;
  beforeAll(async () => {
    plain = await startTlsServer({ cert: pki.serverCert, key: pki.serverKey });
    mutual = await startTlsServer({ cert: pki.serverCert, key: pki.serverKey, requireClientCa: pki.ca });
    named = await startTlsServer({ cert: pki.namedCert, key: pki.namedKey });
  });
  afterAll(async () => {
    await Promise.all([plain.close(), mutual.close(), named.close()]);
  });

  it('trusts the server when its CA is given: REST and the event stream, with a Basic header on the wire', async () => {
    expect(await ping(plain.url, { ca: pki.ca })).toMatchObject({ ping: 'pong', asterisk_id: 'tls-pbx' });
    const result = await firstEventOrProblem(plain.url, { ca: pki.ca });
    expect(result).toMatchObject({ event: { type: 'DeviceStateChanged' } });
    const basic = `Basic ${Buffer.from('ringflow:Tls-Secret-1').toString('base64')}`;
    const rest = plain.seen.find((s) => s.url.startsWith('/ari/asterisk/ping'))!;
    const events = plain.seen.find((s) => s.url.startsWith('/ari/events'))!;
    expect(rest.authorization).toBe(basic);
    expect(events.authorization).toBe(basic);
    // By default credentials never travel in the URL, where proxies log them.
    for (const s of plain.seen) expect(s.url).not.toContain('api_key');
    expect(events.url).toBe('/ari/events?app=ivr');
  });

  it('refuses a server whose certificate no trusted CA signed, with a NETWORK error saying to set tls.ca', async () => {
    for (const tls of [undefined, { ca: pki.otherCa }]) {
      const error = await rejection(ping(plain.url, tls));
      expect(error.code).toBe(ErrorCode.NETWORK);
      expect(error.message).toMatch(/TLS: the server certificate was not accepted .*tls\.ca/);
      const result = await firstEventOrProblem(plain.url, tls);
      expect('problem' in result && result.problem.error.code).toBe(ErrorCode.NETWORK);
      // The stream's error says what failed; its cause, how to fix it (the log shows both).
      expect('problem' in result && pino.stdSerializers.err(result.problem.error).message).toMatch(/tls\.ca/);
    }
  });

  it('presents the client certificate when the server requires one, and fails clearly without it', async () => {
    const withCert = { ca: pki.ca, cert: pki.clientCert, key: pki.clientKey };
    expect(await ping(mutual.url, withCert)).toMatchObject({ ping: 'pong' });
    expect(await firstEventOrProblem(mutual.url, withCert)).toMatchObject({
      event: { type: 'DeviceStateChanged' },
    });
    expect(mutual.seen.map((s) => s.clientCn)).toEqual(['ringflow-client', 'ringflow-client']);

    const error = await rejection(ping(mutual.url, { ca: pki.ca }));
    expect(error.code).toBe(ErrorCode.NETWORK);
    const result = await firstEventOrProblem(mutual.url, { ca: pki.ca });
    expect('problem' in result && result.problem.error.code).toBe(ErrorCode.NETWORK);
    expect(mutual.seen).toHaveLength(2);
  });

  it('checks the certificate against tls.servername when the url names an address', async () => {
    expect(await ping(named.url, { ca: pki.ca, servername: 'pbx.example.test' })).toMatchObject({
      ping: 'pong',
    });
    expect(
      await firstEventOrProblem(named.url, { ca: pki.ca, servername: 'pbx.example.test' }),
    ).toMatchObject({
      event: { type: 'DeviceStateChanged' },
    });
    const error = await rejection(ping(named.url, { ca: pki.ca }));
    expect(error.code).toBe(ErrorCode.NETWORK);
    expect(error.message).toMatch(/tls\.servername/);
  });
});

describe('TLS: there is no way to switch certificate verification off', () => {
  const insecure = { rejectUnauthorized: false } as unknown as TlsOptions;
  const base = { url: 'https://127.0.0.1:8089/ari', username: 'u', password: 'p' };

  function configError(make: () => unknown): RingflowError {
    let caught: unknown;
    try {
      make();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RingflowError);
    expect((caught as RingflowError).code).toBe(ErrorCode.CONFIG);
    return caught as RingflowError;
  }

  it('refuses rejectUnauthorized: false in the REST client, the event stream, the ws options and the runtime', () => {
    const messages = [
      configError(() => createRestClient({ ...base, tls: insecure })).message,
      configError(() => createEventStream({ ...base, apps: ['ivr'], tls: insecure })).message,
      configError(() => new WsTransport({ ws: { rejectUnauthorized: false } })).message,
      configError(() => new WsTransport({ tls: insecure })).message,
      configError(() =>
        createApplication({ servers: [{ ...base, tls: insecure }], apps: ['ivr'], call: ivrCallMachine }),
      ).message,
    ];
    for (const message of messages) {
      expect(message).toMatch(/rejectUnauthorized: turning certificate verification off is not supported/);
      expect(message).toMatch(/tls\.ca/);
    }
  });

  it('refuses a custom checkServerIdentity, unknown TLS fields, a certificate without its key, and TLS options on http://', () => {
    expect(
      configError(() =>
        createRestClient({ ...base, tls: { checkServerIdentity: () => undefined } as unknown as TlsOptions }),
      ).message,
    ).toMatch(/checkServerIdentity: turning certificate verification off/);
    expect(configError(() => new WsTransport({ ws: { checkServerIdentity: () => true } })).message).toMatch(
      /checkServerIdentity/,
    );
    expect(
      configError(() => createRestClient({ ...base, tls: { ciphers: 'NULL' } as unknown as TlsOptions }))
        .message,
    ).toMatch(
      /tls\.ciphers is not a TLS option of ringflow; the options are: ca, cert, key, passphrase, servername/,
    );
    expect(configError(() => createRestClient({ ...base, tls: { cert: 'pem' } })).message).toMatch(
      /tls\.cert is given without \.key/,
    );
    expect(
      configError(() =>
        createEventStream({ ...base, url: 'http://127.0.0.1:8088/ari', apps: ['ivr'], tls: { ca: 'pem' } }),
      ).message,
    ).toMatch(/not encrypted: use https:\/\//);
  });
});
