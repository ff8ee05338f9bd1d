import {
  connectMediaSocket,
  createRestClient,
  type MediaEvent,
  type MediaSocket,
  MediaSocketServer,
  mediaSocketUrl,
  openMediaConnection,
  type RestClient,
  VirtualClock,
} from '@ringflow/client';
import { createSimulator, type Simulator, startWireServer, type WireServer } from '@ringflow/simulator';
import { until } from '@ringflow/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

/**
 * The client's MediaSocket against the simulator over the wire, in both connection modes: the
 * server connects out to the application's MediaSocketServer, and the application connects in
 * to /media/<id>. Audio both ways with the recorded framing (ulaw 160 B, slin16 640 B per 20 ms),
 * marks, FLUSH for a barge-in, and the clean close on hang-up. Virtual time; loopback sockets.
 */

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** Lets loopback sockets deliver (real time) while the virtual clock stands still. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 4));

interface Setup {
  readonly clock: VirtualClock;
  /** The application's WebSocket server the simulator connects out to (`external_host=bot-media`). */
  readonly media: MediaSocketServer;
  readonly sim: Simulator;
  readonly rest: RestClient;
  readonly ariUrl: string;
  /** Moves virtual time on by `ms`, 20 ms at a time, letting the sockets deliver. */
  advance(ms: number): Promise<void>;
  /** An inbound caller in Stasis, answered and in a mixing bridge. */
  callerInBridge(): Promise<{ callerId: string; bridgeId: string }>;
}

async function setUp(): Promise<Setup> {
  const clock = new VirtualClock(Date.UTC(2026, 10, 28, 12, 0, 0));
  const media = await MediaSocketServer.listen({
    path: '/media-out',
    username: 'bot',
    password: 'secret',
    clock,
  });
  cleanups.push(() => media.close());
  const sim = createSimulator({
    clock,
    mediaWebSockets: {
      clients: [
        { id: 'bot-media', uri: media.url, username: 'bot', password: 'secret', reconnectAttempts: 2 },
      ],
    },
  });
  const wire: WireServer = await startWireServer(sim, {
    users: [{ username: 'demo', password: 'demo' }],
    clock,
  });
  cleanups.push(async () => {
    await wire.close();
    sim.close();
  });
  const ariUrl = `http://127.0.0.1:${wire.port}/ari`;
  const events = new WebSocket(`ws://127.0.0.1:${wire.port}/ari/events?app=bot&api_key=demo:demo`);
  await new Promise((resolve, reject) => {
    events.once('open', resolve);
    events.once('error', reject);
  });
  cleanups.push(() => events.close());
  const rest = createRestClient({ url: ariUrl, username: 'demo', password: 'demo' });
  cleanups.push(() => rest.close());
  const advance = async (ms: number) => {
    for (let left = ms; left > 0; left -= 20) {
      await clock.advance(Math.min(20, left));
      await settle();
    }
  };
  const callerInBridge = async () => {
    const callerId = sim.driver.placeCall({ app: 'bot', channelId: 'caller-1' });
    await rest.channel(callerId).answer();
    const bridge = await rest.bridges.create({ type: 'mixing', bridgeId: 'bot-bridge' });
    await rest.bridge(bridge.id).addChannel({ channel: callerId });
    return { callerId, bridgeId: bridge.id };
  };
  return { clock, media, sim, rest, ariUrl, advance, callerInBridge };
}

function collect(socket: MediaSocket) {
  const frames: Uint8Array[] = [];
  const events: MediaEvent[] = [];
  socket.audio$.subscribe((frame) => frames.push(frame));
  socket.events$.subscribe((event) => events.push(event));
  return { frames, events };
}

/** `n` frames of a recognisable byte pattern (frame i filled with i + 1). */
function pattern(frameBytes: number, n: number): Uint8Array {
  const audio = new Uint8Array(frameBytes * n);
  for (let i = 0; i < n; i++) audio.fill((i % 250) + 1, i * frameBytes, (i + 1) * frameBytes);
  return audio;
}

describe('MediaSocket against the simulator, over the wire', () => {
  it('the server connects out: MEDIA_START, the caller heard as 160-byte frames, the bot heard by the caller, FLUSH on barge-in, HANGUP', async () => {
    const { sim, rest, advance, callerInBridge, clock, media } = await setUp();
    const { callerId, bridgeId } = await callerInBridge();

    const waiting = media.socketFor('bot-ws');
    const channel = await rest.channels.externalMedia({
      app: 'bot',
      channelId: 'bot-ws',
      external_host: 'bot-media',
      transport: 'websocket',
      encapsulation: 'none',
      format: 'ulaw',
    });
    expect(channel.channelvars).toMatchObject({ MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE: '160' });
    let connected: MediaSocket | undefined;
    void waiting.then((s) => {
      connected = s;
    });
    const socket = await until('the server to connect out', () => connected, { timeoutMs: 10_000 });
    const { start, format, controlFormat } = await socket.started;
    expect(start).toMatchObject({ channel_id: 'bot-ws', format: 'ulaw', optimal_frame_size: 160, ptime: 20 });
    expect(format).toMatchObject({ kind: 'framed', frameBytes: 160 });
    expect(controlFormat).toBe('plain-text');
    const got = collect(socket);
    await rest.bridge(bridgeId).addChannel({ channel: 'bot-ws' });
    await settle();

    // The caller talks for 400 ms: the bot's socket gets 20 frames of 160 bytes, one per 20 ms.
    sim.driver.startTalking(callerId);
    await advance(400);
    sim.driver.stopTalking(callerId);
    await advance(100);
    expect(got.frames.length).toBeGreaterThanOrEqual(19);
    expect(got.frames.length).toBeLessThanOrEqual(21);
    expect(new Set(got.frames.map((f) => f.length))).toEqual(new Set([160]));

    // The bot answers with 1 s of audio and a mark: played once the server has played it all.
    const sentAt = clock.now();
    socket.play(pattern(160, 50));
    const played = socket.mark('answer-1');
    let outcome: string | undefined;
    void played.then((o) => {
      outcome = o;
    });
    await advance(500);
    expect(outcome).toBeUndefined();
    expect(socket.pendingFrames).toBeGreaterThan(0); // paced: not all sent at once
    await advance(700);
    expect(outcome).toBe('played');
    const heard = sim.driver.heard(callerId);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ mediaChannelId: 'bot-ws', frames: 50, format: 'ulaw', flushed: false });
    expect(heard[0]!.audio).toEqual(pattern(160, 50));
    expect(heard[0]!.startedAt - sentAt).toBeLessThanOrEqual(40);

    // Barge-in: 2 s queued, FLUSH after 300 ms; the mark ends flushed and the caller heard ~15 frames.
    socket.play(pattern(160, 100));
    const cut = socket.mark('answer-2');
    await advance(300);
    socket.flush();
    expect(await cut).toBe('flushed');
    await advance(100);
    const second = sim.driver.heard(callerId)[1]!;
    expect(second).toMatchObject({ flushed: true });
    expect(second.frames).toBeGreaterThanOrEqual(13);
    expect(second.frames).toBeLessThanOrEqual(17);
    const status = socket.status();
    await advance(20);
    expect(await status).toMatchObject({ event: 'STATUS', queue_length: 0, queue_full: false });

    // HANGUP: the server ends the media channel and closes with 1000; the observables complete.
    let completed = false;
    socket.events$.subscribe({ complete: () => (completed = true) });
    socket.hangup();
    await advance(20);
    expect(await socket.closed).toEqual({ code: 1000 });
    expect(completed).toBe(true);
    await until('the media channel to be gone', async () =>
      (await rest.channels.list()).every((c) => c.id !== 'bot-ws'),
    );
    expect(got.events.map((e) => e.event)).toEqual(['MEDIA_MARK_PROCESSED', 'STATUS']);
  }, 60_000);

  it('the application connects in: slin16 in 640-byte frames both ways; a second socket is refused; DELETE closes it', async () => {
    const { sim, rest, advance, callerInBridge, ariUrl, clock } = await setUp();
    const { callerId, bridgeId } = await callerInBridge();
    const channel = await rest.channels.externalMedia({
      app: 'bot',
      channelId: 'bot-in',
      transport: 'websocket',
      encapsulation: 'none',
      connection_type: 'server',
      format: 'slin16',
      transport_data: 'f(json)',
    });
    const id = String(channel.channelvars?.MEDIA_WEBSOCKET_CONNECTION_ID);
    const url = mediaSocketUrl(ariUrl, id);
    expect(url).toBe(`ws://${new URL(ariUrl).host}/media/${id}`);
    const socket = await connectMediaSocket({ url, clock });
    const { start, controlFormat } = await socket.started;
    expect(start).toMatchObject({ channel_id: 'bot-in', format: 'slin16', optimal_frame_size: 640 });
    expect(controlFormat).toBe('json');
    await expect(connectMediaSocket({ url })).rejects.toThrow(/refused with HTTP 409 \(another socket/);
    await expect(connectMediaSocket({ url: mediaSocketUrl(ariUrl, 'no-such-id') })).rejects.toThrow(
      /HTTP 404/,
    );
    const got = collect(socket);
    await rest.bridge(bridgeId).addChannel({ channel: 'bot-in' });

    sim.driver.startTalking(callerId);
    await advance(200);
    sim.driver.stopTalking(callerId);
    await advance(60);
    expect(got.frames.length).toBeGreaterThanOrEqual(9);
    expect(new Set(got.frames.map((f) => f.length))).toEqual(new Set([640]));

    // 250 ms of audio that is not a whole number of frames: the last frame is padded, not dropped.
    socket.play(pattern(640, 12).subarray(0, 640 * 12 - 100));
    const done = socket.mark();
    await advance(400);
    expect(await done).toBe('played');
    const heard = sim.driver.heard(callerId);
    expect(heard[0]).toMatchObject({ frames: 12, format: 'slin16' });

    const closedWith = socket.closed;
    await rest.channel('bot-in').hangup();
    await advance(20);
    expect(await closedWith).toEqual({ code: 1000 });
    expect(got.events.map((e) => e.event)).toEqual(['MEDIA_MARK_PROCESSED']);
  }, 60_000);

  it('openMediaConnection keeps MEDIA_START for a handler attached late; the MediaSocketServer refuses wrong credentials', async () => {
    const { rest, ariUrl, media } = await setUp();
    const channel = await rest.channels.externalMedia({
      app: 'bot',
      channelId: 'raw-in',
      transport: 'websocket',
      encapsulation: 'none',
      connection_type: 'server',
      format: 'ulaw',
    });
    const connection = await openMediaConnection({
      url: mediaSocketUrl(ariUrl, String(channel.channelvars?.MEDIA_WEBSOCKET_CONNECTION_ID)),
    });
    await new Promise((resolve) => setTimeout(resolve, 50)); // MEDIA_START arrives meanwhile, with nobody listening
    const texts: string[] = [];
    connection.onText((text) => texts.push(text));
    await until('MEDIA_START', () => texts.length > 0, { timeoutMs: 10_000 });
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(
      /^MEDIA_START connection_id:\S+ channel:WebSocket\/INCOMING\/0x[0-9a-f]+ channel_id:raw-in format:ulaw optimal_frame_size:160 ptime:20$/,
    );
    connection.close();

    const refused = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(media.url, ['media'], { headers });
        ws.once('unexpected-response', (_request, response) => {
          resolve(response.statusCode ?? 0);
          ws.terminate();
        });
        ws.once('open', () => {
          resolve(101);
          ws.close();
        });
        ws.once('error', () => {});
      });
    const basic = (user: string, password: string) => ({
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    });
    expect(await refused(basic('bot', 'wrong'))).toBe(401);
    expect(await refused({})).toBe(401);
    expect(await refused(basic('bot', 'secret'))).toBe(101);
  }, 60_000);
});
