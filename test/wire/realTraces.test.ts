import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { type Simulator, type WireServer, createSimulator, startWireServer } from '@ringflow/simulator';
import { VirtualClock } from '@ringflow/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedHandshake, users } from './wireClient.ts';

/**
 * Replays requests recorded from a real server (scenarios 00, 01 and 20 of the traces: auth,
 * read-only accounts, error pages, CORS, routing refusals, handshake refusals) against the
 * simulator over the wire, and compares what a client sees: status, error body or HTML page, and
 * the headers that carry meaning. Bodies of successful reads are that server's state and are not
 * compared.
 */
interface Recorded {
  seq: number;
  step: string | null;
  request?: {
    method: string;
    path: string;
    rawQuery: string | null;
    auth: string | null;
    headers: Record<string, string>;
    body: unknown;
  };
  handshake?: { url: string; auth: string | null };
  response: { status: number; headers: Record<string, string>; bodyKind?: string; body: unknown };
}

const recorded: Recorded[] = readFileSync(
  new URL('./fixtures/real-wire-exchanges.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Recorded);

/** The traced server's signature, so HTML pages can be compared byte for byte. */
const TRACED_SERVER = 'Asterisk/GIT-master-f0c1c1a7b7';
const COMPARED_HEADERS = [
  'server',
  'cache-control',
  'content-type',
  'www-authenticate',
  'allow',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
];

let sim: Simulator;
let wire: WireServer;

beforeAll(async () => {
  sim = createSimulator({ clock: new VirtualClock() });
  wire = await startWireServer(sim, { users, clock: sim.clock, serverName: TRACED_SERVER });
});
afterAll(async () => {
  await wire.close();
  sim.close();
});

function basic(auth: string | null): Record<string, string> {
  if (!auth) return {};
  return { Authorization: `Basic ${Buffer.from(auth.replace(/^basic /, '')).toString('base64')}` };
}

/** Sends a request with header names exactly as recorded (node:http keeps their case). */
function replay(req: NonNullable<Recorded['request']>) {
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const body =
      req.body === null ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    const client = httpRequest(
      {
        host: '127.0.0.1',
        port: wire.port,
        method: req.method,
        path: `${req.path}${req.rawQuery ? `?${req.rawQuery}` : ''}`,
        headers: {
          ...req.headers,
          ...basic(req.auth),
          ...(body ? { 'Content-Length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers as Record<string, string>,
            body: text,
          }),
        );
      },
    );
    client.on('error', reject);
    client.end(body);
  });
}

const pick = (headers: Record<string, string | undefined>) =>
  Object.fromEntries(COMPARED_HEADERS.map((name) => [name, headers[name]]));

describe('replay of recorded requests over the wire', () => {
  const requests = recorded.filter((r) => r.request);
  it.each(
    requests.map((r) => [`${r.seq} ${r.request!.method} ${r.request!.path} (${r.step ?? 'ok'})`, r] as const),
  )('%s', async (_name, exchange) => {
    const got = await replay(exchange.request!);
    const want = exchange.response;
    expect(got.status).toBe(want.status);
    expect(pick(got.headers)).toEqual(pick(want.headers));
    if (want.bodyKind === 'json') expect(JSON.parse(got.body)).toEqual(want.body);
    if (want.bodyKind === 'text') expect(got.body).toBe(want.body);
    if (want.bodyKind === 'empty') expect(got.body).toBe('');
  });

  const handshakes = recorded.filter((r) => r.handshake);
  it.each(handshakes.map((r) => [`${r.seq} ${r.step}`, r] as const))('%s', async (_name, exchange) => {
    const url = exchange.handshake!.url.replace('ws://127.0.0.1:8088', `ws://127.0.0.1:${wire.port}`);
    const got = await refusedHandshake(url, basic(exchange.handshake!.auth));
    const want = exchange.response;
    expect(got.status).toBe(want.status);
    for (const name of ['www-authenticate', 'content-type', 'server', 'cache-control']) {
      expect(got.headers[name], name).toBe(want.headers[name]);
    }
    if (typeof want.body === 'string') expect(got.body).toBe(want.body);
    else expect(JSON.parse(got.body)).toEqual(want.body);
  });
});
