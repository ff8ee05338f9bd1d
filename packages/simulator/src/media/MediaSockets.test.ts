import { VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../createSimulator.ts';
import { createMediaPipePair, type MediaDialer, type MediaPipe } from './MediaPipe.ts';

interface AppEnd {
  readonly pipe: MediaPipe;
  readonly texts: { t: number; text: string }[];
  readonly frames: { t: number; data: Uint8Array }[];
  closedWith: number | undefined;
}

/** A simulator on virtual time whose media clients are answered in process by a recording application. */
function setUp(options: { refuse?: boolean; format?: 'ulaw' | 'slin16' } = {}) {
  const clock = new VirtualClock(Date.UTC(2026, 10, 28, 12, 44, 0));
  const apps: AppEnd[] = [];
  const requests: { uri: string; headers: Readonly<Record<string, string>>; protocols: string }[] = [];
  const record = (pipe: MediaPipe): AppEnd => {
    const end: AppEnd = { pipe, texts: [], frames: [], closedWith: undefined };
    pipe.onText((text) => end.texts.push({ t: clock.now(), text }));
    pipe.onBinary((data) => end.frames.push({ t: clock.now(), data }));
    pipe.onClose((code) => {
      end.closedWith = code;
    });
    apps.push(end);
    return end;
  };
  const dial: MediaDialer = async (request) => {
    requests.push(request);
    if (options.refuse) throw new Error('refused with 403');
    const { server, app } = createMediaPipePair();
    record(app);
    return server;
  };
  const sim = createSimulator({
    clock,
    mediaWebSockets: {
      clients: [
        {
          id: 'mt-media',
          uri: 'ws://127.0.0.1:18931/media-out',
          username: 'mtuser',
          password: 'mtpass',
          reconnectAttempts: 2,
          reconnectIntervalMs: 300,
        },
      ],
      dial,
    },
  });
  const events: Record<string, unknown>[] = [];
  sim.connectEvents({ apps: ['mt-app'], subscribeAll: false }, (e) => events.push(e));
  const req = async (method: string, path: string, query: Record<string, string> = {}, body?: unknown) => {
    const response = await sim.handle({ method, path, query, ...(body === undefined ? {} : { body }) });
    await clock.advance(0);
    return response;
  };
  const externalMedia = (query: Record<string, string>, body?: unknown) =>
    req(
      'POST',
      '/channels/externalMedia',
      {
        app: 'mt-app',
        transport: 'websocket',
        encapsulation: 'none',
        format: options.format ?? 'ulaw',
        ...query,
      },
      body,
    );
  /** A caller in a mixing bridge, waiting for the media channel. */
  const callerInBridge = async () => {
    const caller = sim.driver.placeCall({ app: 'mt-app', channelId: 'caller' });
    await clock.advance(0);
    await req('POST', '/bridges', { type: 'mixing', bridgeId: 'b1' });
    await req('POST', '/bridges/b1/addChannel', { channel: caller });
    return caller;
  };
  const eventsOf = (id: string) =>
    events
      .filter(
        (e) =>
          (e.channel as { id?: string } | undefined)?.id === id ||
          (e.peer as { id?: string } | undefined)?.id === id,
      )
      .map(
        (e) =>
          `${e.type}${e.type === 'ChannelVarset' ? ` ${e.variable}` : ''}${e.cause === undefined ? '' : ` ${e.cause}`}`,
      );
  return { sim, clock, apps, requests, events, req, externalMedia, callerInBridge, eventsOf, record };
}

describe('external media over WebSocket, the server connects out', () => {
  it('dials the client with Basic credentials and subprotocol media; MEDIA_START comes first, then the channel is Up and in Stasis', async () => {
    const t = setUp();
    const reply = await t.externalMedia({
      external_host: 'mt-media',
      channelId: 'ws1',
      transport_data: 'v(call=a1,lang=en)',
    });
    expect(reply.status).toBe(200);
    const body = reply.body as Record<string, unknown>;
    expect(body).toMatchObject({
      id: 'ws1',
      state: 'Down',
      dialplan: {
        context: 'default',
        exten: 's',
        priority: 1,
        app_name: 'AppDial2',
        app_data: '(Outgoing Line)',
      },
      channelvars: { MEDIA_WEBSOCKET_CONNECTION_ID: 'mt-media', MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE: '160' },
    });
    expect(String(body.name)).toMatch(/^WebSocket\/mt-media\/0x[0-9a-f]+$/);
    expect(t.requests[0]).toMatchObject({
      uri: 'ws://127.0.0.1:18931/media-out?call=a1&lang=en',
      protocols: 'media',
      headers: { authorization: `Basic ${Buffer.from('mtuser:mtpass').toString('base64')}` },
    });
    expect(t.apps[0]?.texts[0]?.text).toBe(
      `MEDIA_START connection_id:mt-media channel:${body.name} channel_id:ws1 format:ulaw optimal_frame_size:160 ptime:20`,
    );
    expect(t.eventsOf('ws1')).toEqual([
      'Dial',
      'ChannelStateChange',
      'Dial',
      'ChannelVarset STASISSTATUS',
      'StasisStart',
    ]);
    const start = t.events.find((e) => e.type === 'StasisStart') as {
      args: unknown;
      channel: { dialplan: unknown };
    };
    expect(start.args).toEqual([]);
    expect(start.channel.dialplan).toMatchObject({ app_name: 'Stasis', app_data: 'mt-app' });
    // Observed: the v() parameters stay on the shared client for later calls.
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws2' });
    expect(t.requests[1]?.uri).toBe('ws://127.0.0.1:18931/media-out?call=a1&lang=en');
  });

  it('refuses what the real server refuses, in its order', async () => {
    const t = setUp();
    const cases: [Record<string, string>, number, string][] = [
      [
        { external_host: 'mt-media', format: 'nosuchcodec' },
        500,
        'An internal error prevented this request from being handled',
      ],
      [
        { external_host: 'no-such-client' },
        400,
        'external_host must be a valid websocket_client connection id.',
      ],
      [{}, 400, 'external_host is required for all but websocket server connections'],
      [
        { external_host: 'mt-media', encapsulation: '' },
        400,
        "encapsulation must be 'none' for websocket transport",
      ],
      [{ external_host: 'mt-media', format: '' }, 400, 'format cannot be empty'],
      [{ external_host: 'mt-media', direction: 'sideways' }, 400, 'Invalid direction specified'],
      [
        { connection_type: 'server', transport_data: 'v(a=b)' },
        500,
        'An internal error prevented this request from being handled',
      ],
      [
        { external_host: 'mt-media', transport_data: 'z(nonsense' },
        500,
        'An internal error prevented this request from being handled',
      ],
    ];
    for (const [query, status, message] of cases) {
      const reply = await t.externalMedia(query);
      expect([reply.status, reply.body], JSON.stringify(query)).toEqual([status, { message }]);
    }
    // A bad connection_type is taken as client.
    expect((await t.externalMedia({ external_host: 'mt-media', connection_type: 'bogus' })).status).toBe(200);
    expect(t.apps).toHaveLength(1);
  });

  it('gives up after reconnect_attempts when the application refuses: ChannelDestroyed cause 3, no StasisStart', async () => {
    const t = setUp({ refuse: true });
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1' });
    await t.clock.advance(299);
    expect(t.sim.hasChannel('ws1')).toBe(true);
    await t.clock.advance(1);
    expect(t.requests).toHaveLength(2);
    expect(t.sim.hasChannel('ws1')).toBe(false);
    expect(t.eventsOf('ws1')).toEqual(['ChannelDestroyed 3']);
  });

  it('with transport_data n the channel stays Down until the application sends ANSWER', async () => {
    const t = setUp();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1', transport_data: 'n' });
    await t.clock.advance(1500);
    expect(t.eventsOf('ws1')).toEqual(['Dial']);
    t.apps[0]?.pipe.sendText('ANSWER');
    await t.clock.advance(0);
    expect(t.eventsOf('ws1')).toEqual([
      'Dial',
      'ChannelStateChange',
      'Dial',
      'ChannelVarset STASISSTATUS',
      'StasisStart',
    ]);
    t.apps[0]?.pipe.sendText('HANGUP');
    await t.clock.advance(0);
    expect(t.eventsOf('ws1').slice(5)).toEqual([
      'ChannelHangupRequest 16',
      'StasisEnd',
      'ChannelVarset STASISSTATUS',
      'ChannelDestroyed 0',
    ]);
    expect(t.apps[0]?.closedWith).toBe(1000);
  });
});

describe('external media over WebSocket, the application connects in', () => {
  it('answers 404 for an unknown id and 409 for a second connection; StasisStart only once connected', async () => {
    const t = setUp();
    const reply = await t.externalMedia({ connection_type: 'server', channelId: 'ws1', format: 'slin16' });
    const vars = (reply.body as { channelvars: Record<string, string> }).channelvars;
    expect(vars.MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE).toBe('640');
    expect(vars.MEDIA_WEBSOCKET_CONNECTION_ID).toMatch(/^[0-9a-f-]{36}$/);
    expect((reply.body as { name: string }).name).toMatch(/^WebSocket\/INCOMING\/0x/);
    await t.clock.advance(1000);
    expect(t.eventsOf('ws1')).toEqual(['Dial']);
    // Readable before the channel is in Stasis (observed: 200 with the UUID).
    const variable = await t.req('GET', '/channels/ws1/variable', {
      variable: 'MEDIA_WEBSOCKET_CONNECTION_ID',
    });
    expect(variable).toEqual({ status: 200, body: { value: vars.MEDIA_WEBSOCKET_CONNECTION_ID } });
    expect(t.sim.media.acceptIncoming('00000000-not-a-real-id')).toMatchObject({ status: 404 });
    const accept = t.sim.media.acceptIncoming(vars.MEDIA_WEBSOCKET_CONNECTION_ID!);
    if (typeof accept !== 'function') throw new Error('refused');
    const { server, app } = createMediaPipePair();
    const end = t.record(app);
    accept(server);
    await t.clock.advance(0);
    expect(end.texts[0]?.text).toMatch(
      /^MEDIA_START connection_id:[0-9a-f-]{36} channel:WebSocket\/INCOMING\/0x[0-9a-f]+ channel_id:ws1 format:slin16 optimal_frame_size:640 ptime:20$/,
    );
    expect(t.eventsOf('ws1')).toEqual([
      'Dial',
      'ChannelStateChange',
      'Dial',
      'ChannelVarset STASISSTATUS',
      'StasisStart',
    ]);
    expect(t.sim.media.acceptIncoming(vars.MEDIA_WEBSOCKET_CONNECTION_ID!)).toMatchObject({ status: 409 });
    // DELETE: the server closes with 1000, the cause is the one given.
    await t.req('DELETE', '/channels/ws1', { reason_code: '17' });
    expect(end.closedWith).toBe(1000);
    expect(t.eventsOf('ws1').slice(-4)).toEqual([
      'ChannelHangupRequest 32',
      'StasisEnd',
      'ChannelVarset STASISSTATUS',
      'ChannelDestroyed 17',
    ]);
    expect(t.sim.media.acceptIncoming(vars.MEDIA_WEBSOCKET_CONNECTION_ID!)).toMatchObject({ status: 404 });
  });

  it('gives up after 30 s when nobody connects: only ChannelDestroyed, cause 19', async () => {
    const t = setUp();
    const reply = await t.externalMedia({ connection_type: 'server', channelId: 'ws1' });
    const id = (reply.body as { channelvars: Record<string, string> }).channelvars
      .MEDIA_WEBSOCKET_CONNECTION_ID!;
    await t.clock.advance(30_000);
    expect(t.eventsOf('ws1')).toEqual(['Dial', 'ChannelDestroyed 19']);
    expect(t.sim.media.acceptIncoming(id)).toMatchObject({ status: 404 });
  });

  it('sends MEDIA_START in JSON with the channel variables when asked with f(json)', async () => {
    const t = setUp();
    await t.externalMedia(
      { external_host: 'mt-media', channelId: 'ws1', transport_data: 'f(json)' },
      { variables: { MT_CASE: 'e', 'CALLERID(num)': '5551234' } },
    );
    const start = JSON.parse(t.apps[0]?.texts[0]?.text ?? '{}');
    expect(start).toEqual({
      event: 'MEDIA_START',
      connection_id: 'mt-media',
      channel: start.channel,
      channel_id: 'ws1',
      format: 'ulaw',
      optimal_frame_size: 160,
      ptime: 20,
      channel_variables: {
        MT_CASE: 'e',
        MEDIA_WEBSOCKET_CONNECTION_ID: 'mt-media',
        MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE: '160',
      },
    });
    const pipe = t.apps[0]!.pipe;
    pipe.sendText('{"command":"GET_STATUS"}');
    pipe.sendText('this is not json');
    pipe.sendText('{"command":"SET_MEDIA_DIRECTION","direction":"sideways"}');
    pipe.sendText('{"command":"NO_SUCH_COMMAND"}');
    expect(t.apps[0]!.texts.slice(1).map((m) => JSON.parse(m.text))).toEqual([
      {
        event: 'STATUS',
        channel_id: 'ws1',
        queue_length: 0,
        xon_level: 800,
        xoff_level: 900,
        queue_full: false,
        bulk_media: false,
        media_paused: false,
      },
      { event: 'ERROR', channel_id: 'ws1', error_text: 'Unable to parse JSON command' },
      {
        event: 'ERROR',
        channel_id: 'ws1',
        error_text: "'sideways' is not a valid direction for SET_MEDIA_DIRECTION.\n",
      },
    ]);
  });
});

describe('audio both ways', () => {
  it('plays the application audio at 20 ms a frame; the caller hears it; MARK_MEDIA is acknowledged once played', async () => {
    const t = setUp();
    const caller = await t.callerInBridge();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1' });
    await t.req('POST', '/bridges/b1/addChannel', { channel: 'ws1' });
    const app = t.apps[0]!;
    const sentAt = t.clock.now();
    for (let i = 0; i < 100; i++) app.pipe.sendBinary(new Uint8Array(160).fill(i));
    app.pipe.sendText('MARK_MEDIA m1');
    app.pipe.sendText('GET_STATUS');
    expect(app.texts.at(-1)?.text).toBe(
      'STATUS channel_id:ws1 queue_length:100 xon_level:800 xoff_level:900 queue_full:false bulk_media:false media_paused:false',
    );
    await t.clock.advance(1000);
    app.pipe.sendText('GET_STATUS');
    expect(app.texts.at(-1)?.text).toContain('queue_length:50 ');
    await t.clock.advance(1100);
    const mark = app.texts.find((m) => m.text === 'MEDIA_MARK_PROCESSED m1');
    expect(mark && mark.t - sentAt).toBe(2020);
    const heard = t.sim.driver.heard(caller);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ mediaChannelId: 'ws1', frames: 100, format: 'ulaw', flushed: false });
    expect(heard[0]!.endedAt - heard[0]!.startedAt).toBe(2000);
    expect(heard[0]!.audio[160 * 99]).toBe(99);
  });

  it('FLUSH_MEDIA drops the queued audio and its marks; REPORT_QUEUE_DRAINED answers once the queue is empty', async () => {
    const t = setUp();
    const caller = await t.callerInBridge();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1' });
    await t.req('POST', '/bridges/b1/addChannel', { channel: 'ws1' });
    const app = t.apps[0]!;
    app.pipe.sendBinary(new Uint8Array(16000));
    app.pipe.sendText('MARK_MEDIA m2');
    await t.clock.advance(300);
    app.pipe.sendText('GET_STATUS');
    expect(app.texts.at(-1)?.text).toContain('queue_length:85 ');
    app.pipe.sendText('FLUSH_MEDIA');
    app.pipe.sendText('GET_STATUS');
    expect(app.texts.at(-1)?.text).toContain('queue_length:0 ');
    await t.clock.advance(3000);
    expect(app.texts.some((m) => m.text.startsWith('MEDIA_MARK_PROCESSED'))).toBe(false);
    expect(t.sim.driver.heard(caller)).toMatchObject([{ frames: 15, flushed: true }]);
    app.pipe.sendText('REPORT_QUEUE_DRAINED');
    await t.clock.advance(20);
    expect(app.texts.at(-1)?.text).toBe('QUEUE_DRAINED');
    app.pipe.sendBinary(new Uint8Array(8000));
    app.pipe.sendText('REPORT_QUEUE_DRAINED');
    const asked = t.clock.now();
    await t.clock.advance(1100);
    const drained = app.texts.filter((m) => m.text === 'QUEUE_DRAINED').at(-1);
    expect(drained!.t - asked).toBeGreaterThanOrEqual(1000);
    expect(drained!.t - asked).toBeLessThanOrEqual(1020);
  });

  it('drops a partial frame unless buffering; flow control sends MEDIA_XOFF at 900 and MEDIA_XON below 800', async () => {
    const t = setUp();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1' });
    const app = t.apps[0]!;
    const status = () => {
      app.pipe.sendText('GET_STATUS');
      return app.texts.at(-1)?.text ?? '';
    };
    app.pipe.sendBinary(new Uint8Array(100));
    expect(status()).toContain('queue_length:0 ');
    app.pipe.sendText('START_MEDIA_BUFFERING');
    app.pipe.sendBinary(new Uint8Array(100));
    app.pipe.sendBinary(new Uint8Array(100));
    expect(status()).toContain(
      'queue_length:1 xon_level:800 xoff_level:900 queue_full:false bulk_media:true',
    );
    app.pipe.sendText('STOP_MEDIA_BUFFERING b1');
    await t.clock.advance(60);
    expect(app.texts.at(-1)?.text).toBe('MEDIA_BUFFERING_COMPLETED b1');
    for (const frames of [400, 400, 150]) app.pipe.sendBinary(new Uint8Array(frames * 160));
    expect(app.texts.at(-1)?.text).toBe('MEDIA_XOFF');
    expect(status()).toContain('queue_length:950 xon_level:800 xoff_level:900 queue_full:true');
    app.pipe.sendBinary(new Uint8Array(400 * 160));
    expect(status()).toContain('queue_length:1350 ');
    app.pipe.sendBinary(new Uint8Array(160)); // dropped: the queue is past 1000
    expect(status()).toContain('queue_length:1350 ');
    app.pipe.sendText('PAUSE_MEDIA');
    await t.clock.advance(200);
    expect(status()).toContain(
      'queue_length:1350 xon_level:800 xoff_level:900 queue_full:true bulk_media:false media_paused:true',
    );
    app.pipe.sendText('CONTINUE_MEDIA');
    app.pipe.sendText('FLUSH_MEDIA');
    await t.clock.advance(20);
    expect(app.texts.at(-1)?.text).toBe('MEDIA_XON');
    expect(status()).toContain('queue_length:0 xon_level:800 xoff_level:900 queue_full:false');
    app.pipe.sendText('SET_MEDIA_DIRECTION out');
    expect(app.texts.at(-1)?.text).toBe(
      'ERROR channel_id:ws1 error_text:SET_MEDIA_DIRECTION only supports JSON format.\n',
    );
    const before = app.texts.length;
    app.pipe.sendText('NO_SUCH_COMMAND foo');
    app.pipe.sendText(`MARK_MEDIA ${'x'.repeat(140)}`);
    await t.clock.advance(100);
    expect(app.texts).toHaveLength(before);
  });

  it('sends the sound that reaches the channel as frames: a playback to the caller, the caller talking; nothing in silence', async () => {
    const t = setUp();
    const caller = await t.callerInBridge();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1' });
    const app = t.apps[0]!;
    t.sim.driver.startTalking(caller);
    await t.clock.advance(1000);
    expect(app.frames).toHaveLength(0); // not in the bridge yet
    await t.req('POST', '/bridges/b1/addChannel', { channel: 'ws1' });
    await t.clock.advance(1000);
    expect(app.frames).toHaveLength(50);
    expect(new Set(app.frames.map((f) => f.data.length))).toEqual(new Set([160]));
    const gaps = app.frames.slice(1).map((f, i) => f.t - app.frames[i]!.t);
    expect(new Set(gaps)).toEqual(new Set([20]));
    t.sim.driver.stopTalking(caller);
    await t.clock.advance(1000);
    expect(app.frames).toHaveLength(50);
    await t.req('POST', '/bridges/b1/play', { media: 'sound:hello-world' });
    await t.clock.advance(500);
    expect(app.frames.length).toBeGreaterThan(70);
  });

  it('SET_MEDIA_DIRECTION (JSON): out sends the application nothing, in drops its audio and refuses marks', async () => {
    const t = setUp();
    const caller = await t.callerInBridge();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1', transport_data: 'f(json)' });
    await t.req('POST', '/bridges/b1/addChannel', { channel: 'ws1' });
    const app = t.apps[0]!;
    t.sim.driver.startTalking(caller);
    app.pipe.sendText('{"command":"SET_MEDIA_DIRECTION","direction":"out"}');
    await t.clock.advance(1000);
    expect(app.frames).toHaveLength(0);
    app.pipe.sendText('{"command":"SET_MEDIA_DIRECTION","direction":"in"}');
    app.pipe.sendBinary(new Uint8Array(1600));
    app.pipe.sendText('{"command":"MARK_MEDIA","correlation_id":"j2"}');
    expect(JSON.parse(app.texts.at(-1)!.text)).toEqual({
      event: 'ERROR',
      channel_id: 'ws1',
      error_text: "MARK_MEDIA not supported while media direction is 'in'",
    });
    await t.clock.advance(1000);
    expect(app.frames).toHaveLength(50);
    expect(t.sim.driver.heard(caller)).toEqual([]);
  });

  it('DTMF played to the media channel reaches the socket as DTMF_END', async () => {
    const t = setUp();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1' });
    await t.req('POST', '/channels/ws1/dtmf', { dtmf: '1#', duration: '100', between: '100' });
    await t.clock.advance(300);
    expect(t.apps[0]!.texts.slice(1).map((m) => m.text)).toEqual([
      'DTMF_END digit:1 channel_id:ws1',
      'DTMF_END digit:# channel_id:ws1',
    ]);
  });

  it('passthrough codecs: optimal_frame_size 0, MARK and FLUSH refused', async () => {
    const t = setUp();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1', format: 'opus' });
    const app = t.apps[0]!;
    expect(app.texts[0]?.text).toContain('format:opus optimal_frame_size:0 ptime:20');
    app.pipe.sendText('MARK_MEDIA p1');
    app.pipe.sendText('FLUSH_MEDIA');
    expect(app.texts.slice(1).map((m) => m.text)).toEqual([
      'ERROR channel_id:ws1 error_text:MARK_MEDIA not supported in passthrough mode',
      'ERROR channel_id:ws1 error_text:FLUSH_MEDIA not supported in passthrough mode',
    ]);
  });

  it('the application closing hangs the channel up; an oversized message closes with 1009, cause 38', async () => {
    const t = setUp();
    const caller = await t.callerInBridge();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1' });
    await t.req('POST', '/bridges/b1/addChannel', { channel: 'ws1' });
    t.apps[0]!.pipe.close(1000);
    await t.clock.advance(0);
    // A real server also sets BRIDGEPEER here; the simulator does not model that variable.
    expect(t.eventsOf('ws1').slice(-5)).toEqual([
      'ChannelHangupRequest 16',
      'ChannelLeftBridge',
      'StasisEnd',
      'ChannelVarset STASISSTATUS',
      'ChannelDestroyed 16',
    ]);
    expect(t.sim.hasChannel(caller)).toBe(true);
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws2' });
    t.apps[1]!.pipe.sendBinary(new Uint8Array(70000));
    await t.clock.advance(0);
    expect(t.apps[1]!.closedWith).toBe(1009);
    expect(t.eventsOf('ws2').slice(-4)).toEqual([
      'ChannelHangupRequest 38',
      'StasisEnd',
      'ChannelVarset STASISSTATUS',
      'ChannelDestroyed 0',
    ]);
  });

  it('the caller hanging up leaves the media channel in the bridge with its socket open', async () => {
    const t = setUp();
    const caller = await t.callerInBridge();
    await t.externalMedia({ external_host: 'mt-media', channelId: 'ws1' });
    await t.req('POST', '/bridges/b1/addChannel', { channel: 'ws1' });
    t.sim.driver.hangup(caller);
    await t.clock.advance(1500);
    expect(t.sim.hasChannel('ws1')).toBe(true);
    expect(t.apps[0]!.closedWith).toBeUndefined();
  });
});
