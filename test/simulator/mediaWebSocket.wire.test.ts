import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VirtualClock } from '@ringflow/client';
import { createSimulator, type Simulator, startWireServer, type WireServer } from '@ringflow/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * Replays the recorded media exchange (fixtures/media-websocket.jsonl, slices of the real
 * server's media-websocket.jsonl) against the simulator over the wire, with a plain `ws`
 * application: the handshake, MEDIA_START, the commands the application sent at the times it
 * sent them (virtual time), and the replies compared with the real server's, in order and in time.
 */

interface TraceLine {
  readonly case: string;
  readonly t: number;
  readonly kind: string;
  readonly [field: string]: unknown;
}

const TRACE: TraceLine[] = readFileSync(new URL('./fixtures/media-websocket.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as TraceLine);

const DIALPLAN = `
[mediatrace]
exten => loop,1,Answer()
 same => n(top),Playback(hello-world)
 same => n,Wait(0.2)
 same => n,Goto(top)
`;

/** Binary messages the application sent just before its n-th text (case a; sizes from the trace's notes and summaries). */
const BINARY_BEFORE_TEXT: Readonly<Record<number, readonly number[]>> = {
  0: Array.from({ length: 100 }, () => 160),
  3: [16000],
  8: [8000],
  9: [100],
  11: [100, 100],
  14: [64000, 64000, 24000],
  15: [64000],
  16: [160],
};

/** Lets loopback sockets deliver (real time) while the virtual clock stands still. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 4));

/** Waits (real time, virtual time standing still) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await settle();
  expect(condition()).toBe(true);
}

interface MediaApp {
  readonly port: number;
  readonly handshakes: { url: string; authorization: string | undefined; protocol: string }[];
  readonly texts: { t: number; text: string }[];
  readonly frames: { t: number; length: number }[];
  socket: WebSocket | undefined;
  closedWith: number | undefined;
  close(): Promise<void>;
}

async function startMediaApp(clock: VirtualClock, start: () => number): Promise<MediaApp> {
  const http = createServer();
  const wss = new WebSocketServer({
    server: http,
    handleProtocols: (p) => (p.has('media') ? 'media' : false),
  });
  const app: MediaApp = {
    port: 0,
    handshakes: [],
    texts: [],
    frames: [],
    socket: undefined,
    closedWith: undefined,
    close: () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        http.close(() => resolve());
      }),
  };
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    app.socket = ws;
    app.handshakes.push({
      url: req.url ?? '',
      authorization: req.headers.authorization,
      protocol: ws.protocol,
    });
    ws.on('message', (data: Buffer, isBinary) => {
      const t = clock.now() - start();
      if (isBinary) app.frames.push({ t, length: data.length });
      else app.texts.push({ t, text: data.toString('utf8') });
    });
    ws.on('close', (code) => {
      app.closedWith = code;
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return Object.assign(app, { port: (http.address() as AddressInfo).port });
}

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function setUp() {
  const clock = new VirtualClock(Date.UTC(2026, 10, 28, 12, 44, 0));
  let caseStart = clock.now();
  const app = await startMediaApp(clock, () => caseStart);
  cleanups.push(() => app.close());
  const sim: Simulator = createSimulator({
    clock,
    dialplan: { text: DIALPLAN },
    mediaWebSockets: {
      clients: [
        {
          id: 'mt-media',
          uri: `ws://127.0.0.1:${app.port}/media-out`,
          username: 'mtuser',
          password: 'mtpass',
          reconnectAttempts: 2,
          reconnectIntervalMs: 300,
        },
      ],
    },
  });
  const wire: WireServer = await startWireServer(sim, {
    driver: sim.driver,
    users: [{ username: 'demo', password: 'demo' }],
    clock,
  });
  cleanups.push(async () => {
    await wire.close();
    sim.close();
  });
  const base = `127.0.0.1:${wire.port}`;
  const events: { t: number; event: Record<string, unknown> }[] = [];
  const ari = new WebSocket(`ws://${base}/ari/events?app=mt-app&api_key=demo:demo`);
  ari.on('message', (data: Buffer) =>
    events.push({ t: clock.now() - caseStart, event: JSON.parse(data.toString()) }),
  );
  await new Promise((resolve) => ari.once('open', resolve));
  cleanups.push(() => ari.close());
  const rest = async (
    method: string,
    path: string,
    query: Record<string, unknown> = {},
    body?: unknown,
    root = '/ari',
  ) => {
    const qs = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const response = await fetch(`http://${base}${root}${path}${qs ? `?${qs}` : ''}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    await settle();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const driver = (method: string, path: string) => rest(method, path, {}, undefined, '/ringflow/driver');
  /** Moves virtual time to `t` ms after the case start, 20 ms at a time, letting the sockets deliver. */
  const at = async (t: number) => {
    while (clock.now() - caseStart < t) {
      await clock.advance(Math.min(20, t - (clock.now() - caseStart)));
      await settle();
    }
  };
  const restart = () => {
    caseStart = clock.now();
  };
  return { clock, sim, app, events, rest, driver, at, base, restart };
}

const eventLine = (e: Record<string, unknown>) =>
  `${e.type}${e.type === 'ChannelVarset' ? ` ${e.variable}` : ''}${e.type === 'Dial' ? ` ${e.dialstatus}` : ''}`;

const ofChannel = (id: string) => (e: Record<string, unknown>) =>
  (e.channel as { id?: string } | undefined)?.id === id || (e.peer as { id?: string } | undefined)?.id === id;

describe('media over WebSocket against the recorded server, over the wire', () => {
  it('case a: the server connects out; the replies, their order and their times match the recording', async () => {
    const { app, events, rest, at, driver } = await setUp();
    const trace = TRACE.filter((l) => l.case === 'a-server-connects-out-ulaw');
    const requests = trace.filter((l) => l.kind === 'rest');
    const recordedIn = trace.filter((l) => l.kind === 'text' && l.direction === 'in');
    const recordedOut = trace.filter((l) => l.kind === 'text' && l.direction === 'out');

    // The calls' REST requests, at their recorded times: the caller, its bridge, the media channel.
    for (const request of requests.slice(0, 4)) {
      await at(request.t);
      const reply = await rest(
        String(request.method),
        String(request.path),
        request.query as Record<string, unknown>,
      );
      expect(reply.status, String(request.path)).toBe(request.status);
      if (request.path === '/channels/externalMedia') {
        const recorded = request.body as Record<string, unknown>;
        expect(reply.body).toMatchObject({
          id: recorded.id,
          state: recorded.state,
          dialplan: recorded.dialplan,
          channelvars: recorded.channelvars,
        });
      }
    }
    await until(() => events.some((e) => e.event.type === 'StasisStart' && ofChannel('mt-a-ws')(e.event)));
    const handshake = trace.find((l) => l.kind === 'handshake') as TraceLine & {
      url: string;
      headers: Record<string, string>;
      subprotocol: string;
    };
    expect(app.handshakes).toEqual([
      { url: handshake.url, authorization: handshake.headers.authorization, protocol: handshake.subprotocol },
    ]);
    const started = events.find((e) => e.event.type === 'StasisStart' && ofChannel('mt-a-ws')(e.event));
    const name = String((started?.event.channel as { name?: string } | undefined)?.name);
    const normalise = (text: string) => text.replaceAll(name, 'WebSocket/mt-media/0x7fc05c007140');
    expect(normalise(app.texts[0]?.text ?? '')).toBe(recordedIn[0]?.message);

    // Before the media channel joins the bridge, no audio (observed).
    await at(1038);
    expect(app.frames).toHaveLength(0);
    const add = requests[4]!;
    expect(
      await rest(String(add.method), String(add.path), add.query as Record<string, unknown>),
    ).toMatchObject({ status: 204 });
    // The recorded caller looped Playback(hello-world) in its dialplan; dialplan playback is not
    // sound in the simulator, so the caller talks instead (the driver, over the wire).
    expect((await driver('POST', '/calls/mt-a-caller/talk')).status).toBe(204);

    // The application's commands and audio at their recorded times.
    for (const [index, line] of recordedOut.entries()) {
      await at(line.t);
      for (const size of BINARY_BEFORE_TEXT[index] ?? [])
        app.socket!.send(Buffer.alloc(size, 0x55), { binary: true });
      app.socket!.send(String(line.message));
      await settle();
    }
    const dtmf = requests.find((r) => r.path === '/channels/mt-a-ws/dtmf')!;
    await at(dtmf.t);
    expect((await rest('POST', '/channels/mt-a-ws/dtmf', dtmf.query as Record<string, unknown>)).status).toBe(
      204,
    );
    await at(9476);
    expect((await driver('DELETE', '/calls/mt-a-caller/talk')).status).toBe(204);
    await at(9477);
    expect((await rest('DELETE', '/channels/mt-a-caller')).status).toBe(204);
    await at(10979);
    expect(app.closedWith).toBeUndefined(); // the caller left; the media socket stays open (observed)
    expect((await rest('DELETE', '/channels/mt-a-ws')).status).toBe(204);
    await at(11000);
    expect(app.closedWith).toBe(1000);

    // Every reply the real server sent, in the same order, each within 25 ms of its recorded time.
    expect(app.texts.map((m) => normalise(m.text))).toEqual(recordedIn.map((l) => l.message));
    for (const [i, m] of app.texts.entries()) {
      // Known difference: the simulator plays each digit for `duration` with `between` between
      // digits, so the second DTMF_END comes `duration` (100 ms) later than the real server's.
      const known = m.text.startsWith('DTMF_END digit:#') ? 100 : 0;
      expect(
        Math.abs(m.t - known - recordedIn[i]!.t),
        `${m.text} at ${m.t}, recorded ${recordedIn[i]!.t}`,
      ).toBeLessThanOrEqual(25);
    }
    // Audio to the application: raw 160-byte µ-law frames every 20 ms, only while the caller's side plays.
    expect(app.frames.length).toBeGreaterThan(50);
    expect(new Set(app.frames.map((f) => f.length))).toEqual(new Set([160]));
    expect(app.frames[0]!.t).toBeGreaterThanOrEqual(1039);
    expect(app.frames.at(-1)!.t).toBeLessThanOrEqual(9477);
    for (let i = 1; i < app.frames.length; i++)
      expect((app.frames[i]!.t - app.frames[i - 1]!.t) % 20).toBe(0);

    // What the caller heard of the application's audio, over the driver API: the 2 s burst first.
    const heard = await rest('GET', '/calls/mt-a-caller/heard', {}, undefined, '/ringflow/driver');
    const stretches = (
      heard.body as { heard: { frames: number; format: string; audio: string; flushed: boolean }[] }
    ).heard;
    expect(stretches[0]).toMatchObject({ frames: 100, format: 'ulaw', flushed: false });
    expect(Buffer.from(stretches[0]!.audio, 'base64')).toHaveLength(16000);
    expect(stretches[1]).toMatchObject({ frames: 15, flushed: true }); // FLUSH_MEDIA after 300 ms

    // The media channel's events, as recorded (BRIDGEPEER is not modelled by the simulator).
    const recordedEvents = trace
      .filter((l) => l.kind === 'event')
      .map((l) => l.event as Record<string, unknown>)
      .filter(ofChannel('mt-a-ws'))
      .filter((e) => e.variable !== 'BRIDGEPEER')
      .map(eventLine);
    const seen = events
      .map((e) => e.event)
      .filter(ofChannel('mt-a-ws'))
      .map(eventLine);
    expect(seen).toEqual(recordedEvents);
  }, 30_000);

  it('case b: the application connects in at /media/<id>: no credentials, 404 for an unknown id, 409 for a second socket, with or without subprotocol', async () => {
    const { app, events, rest, base } = await setUp();
    const trace = TRACE.filter((l) => l.case === 'b-app-connects-in-slin16');
    const request = trace.find((l) => l.kind === 'rest' && l.path === '/channels/externalMedia')!;
    const reply = await rest('POST', '/channels/externalMedia', request.query as Record<string, unknown>);
    expect(reply.status).toBe(200);
    const id = (reply.body as { channelvars: Record<string, string> }).channelvars
      .MEDIA_WEBSOCKET_CONNECTION_ID!;
    expect(
      events
        .map((e) => e.event)
        .filter(ofChannel('mt-b-ws'))
        .map(eventLine),
    ).toEqual(['Dial ']);

    const open = (path: string, protocol?: string) =>
      new Promise<{ status: number; ws?: WebSocket; texts: string[] }>((resolve) => {
        const texts: string[] = [];
        const ws = new WebSocket(`ws://${base}${path}`, protocol === undefined ? [] : [protocol]);
        ws.on('message', (data: Buffer, isBinary) => {
          if (!isBinary) texts.push(data.toString());
        });
        ws.once('open', () => resolve({ status: 101, ws, texts }));
        ws.once('unexpected-response', (_req, res) => {
          resolve({ status: res.statusCode ?? 0, texts });
          ws.terminate();
        });
        ws.once('error', () => {});
      });
    const handshakes = trace.filter((l) => l.kind === 'handshake');
    expect((await open('/media/00000000-not-a-real-id', 'media')).status).toBe(handshakes[0]!.status);
    const first = await open(`/media/${id}`, 'media');
    expect(first.status).toBe(handshakes[1]!.status);
    expect(first.ws?.protocol).toBe('media');
    await until(() => first.texts.length > 0);
    await until(() => events.some((e) => e.event.type === 'StasisStart' && ofChannel('mt-b-ws')(e.event)));
    expect(first.texts[0]).toMatch(
      new RegExp(
        `^MEDIA_START connection_id:${id} channel:WebSocket/INCOMING/0x[0-9a-f]+ channel_id:mt-b-ws format:slin16 optimal_frame_size:640 ptime:20$`,
      ),
    );
    expect(
      events
        .map((e) => e.event)
        .filter(ofChannel('mt-b-ws'))
        .map(eventLine),
    ).toEqual(['Dial ', 'ChannelStateChange', 'Dial ANSWER', 'ChannelVarset STASISSTATUS', 'StasisStart']);
    expect((await open(`/media/${id}`, 'media')).status).toBe(handshakes[2]!.status);
    // The application closes: the channel is hung up and the server answers the close with 1000.
    const closed = new Promise<number>((resolve) => first.ws!.once('close', resolve));
    first.ws!.close(1000, 'bye');
    expect(await closed).toBe(1000);
    await until(() =>
      events.some((e) => e.event.type === 'ChannelDestroyed' && ofChannel('mt-b-ws')(e.event)),
    );
    expect(
      events
        .map((e) => e.event)
        .filter(ofChannel('mt-b-ws'))
        .map(eventLine)
        .slice(-4),
    ).toEqual(['ChannelHangupRequest', 'StasisEnd', 'ChannelVarset STASISSTATUS', 'ChannelDestroyed']);
    expect(app.handshakes).toHaveLength(0);

    // b2: a query string and no subprotocol are fine.
    const second = await rest('POST', '/channels/externalMedia', {
      app: 'mt-app',
      transport: 'websocket',
      encapsulation: 'none',
      connection_type: 'server',
      format: 'ulaw',
      channelId: 'mt-b2-ws',
      transport_data: 'f(json)',
    });
    const id2 = (second.body as { channelvars: Record<string, string> }).channelvars
      .MEDIA_WEBSOCKET_CONNECTION_ID!;
    const plain = await open(`/media/${id2}?foo=bar`);
    expect(plain.status).toBe(101);
    expect(plain.ws?.protocol).toBe('');
    await until(() => plain.texts.length > 0);
    expect(JSON.parse(plain.texts[0] ?? '{}')).toMatchObject({
      event: 'MEDIA_START',
      connection_id: id2,
      format: 'ulaw',
      optimal_frame_size: 160,
    });
    plain.ws!.close();
  }, 30_000);

  it('c1: bad requests get the recorded statuses and messages', async () => {
    const { rest } = await setUp();
    const requests = TRACE.filter((l) => l.case === 'c1-bad-requests' && l.kind === 'rest');
    for (const request of requests) {
      const reply = await rest('POST', '/channels/externalMedia', request.query as Record<string, unknown>);
      expect(reply.status, JSON.stringify(request.query)).toBe(request.status);
      if (request.status !== 200) expect(reply.body).toEqual(request.body);
    }
  }, 30_000);
});
