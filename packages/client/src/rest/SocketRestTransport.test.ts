import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/VirtualClock.ts';
import { HttpError } from '../errors/HttpError.ts';
import type { RingflowError } from '../errors/RingflowError.ts';
import { createRestClient } from './createRestClient.ts';
import type { RestTransport } from './RestTransport.ts';
import { SocketRestTransport } from './SocketRestTransport.ts';

/** One line of the outbound-websocket trace recorded from a real server. */
interface TraceLine {
  readonly mode: 'persistent' | 'per_call_config';
  readonly conn: number;
  readonly kind: 'handshake' | 'received' | 'sent' | 'closed';
  readonly msg?: Record<string, unknown>;
}

const trace: TraceLine[] = readFileSync(
  new URL('./fixtures/outbound-websocket.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as TraceLine);

function conversation(mode: TraceLine['mode'], conn: number) {
  const lines = trace.filter((l) => l.mode === mode && l.conn === conn && l.msg);
  return {
    sent: lines.filter((l) => l.kind === 'sent').map((l) => l.msg!),
    responses: lines
      .filter((l) => l.kind === 'received' && l.msg!.type === 'RESTResponse')
      .map((l) => l.msg!),
  };
}

function socketClient(transport: SocketRestTransport, clock = new VirtualClock()) {
  return createRestClient({
    url: 'http://pbx.invalid/ari',
    username: '',
    password: '',
    segment: 'asterisk',
    clock,
    transport,
  });
}

describe('SocketRestTransport against the recorded framing', () => {
  for (const [mode, conn] of [
    ['persistent', 1],
    ['per_call_config', 2],
  ] as const) {
    it(`sends the frames a real server was sent (${mode}) and returns what its replies say`, async () => {
      const recorded = conversation(mode, conn);
      const frames: Record<string, unknown>[] = [];
      const transactionId = String(recorded.sent[0]!.transaction_id);
      const transport = new SocketRestTransport({
        sendFrame: (text) => frames.push(JSON.parse(text) as Record<string, unknown>),
        transactionId,
      });
      const client = socketClient(transport);
      const reply = (index: number) => {
        expect(transport.receive(recorded.responses[index]!)).toBe(true);
      };
      const uri = (index: number) => String(recorded.sent[index]!.uri);
      const channelId = uri(0).split('/')[1]!;
      const playbackId = uri(1).split('/')[3]!;
      const app = String((recorded.sent[3]!.query_strings as { name: string; value: string }[])[0]!.value);

      const answered = client.channel(channelId).answer();
      reply(0);
      await expect(answered).resolves.toBeUndefined();
      const played = client.channel(channelId).playWithId({ playbackId, media: ['sound:beep'] });
      reply(1);
      await expect(played).resolves.toMatchObject({ id: playbackId, state: 'queued' });
      const variable = client.channel(channelId).getChannelVar({ variable: 'CHANNEL(language)' });
      reply(2);
      await expect(variable).resolves.toEqual({ value: 'en' });
      const userEvent = client.events.userEvent({
        eventName: 'OwTest',
        application: app,
        variables: { k: 'v' },
      });
      reply(3);
      await expect(userEvent).resolves.toBeUndefined();
      const ping = client.asterisk.ping();
      reply(4);
      await expect(ping).resolves.toMatchObject({ ping: 'pong', asterisk_id: '02:fc:00:00:00:01' });
      const hangup = client.channel(channelId).hangup();
      reply(5);
      await expect(hangup).resolves.toBeUndefined();

      expect(frames).toEqual(recorded.sent);
      expect(transport.pending).toBe(0);
    });
  }

  it('answers out of order: each reply settles the request with its request_id', async () => {
    const frames: Record<string, unknown>[] = [];
    const transport = new SocketRestTransport({ sendFrame: (t) => frames.push(JSON.parse(t)) });
    const client = socketClient(transport);
    const first = client.channel('a').getChannelVar({ variable: 'X' });
    const second = client.channel('b').getChannelVar({ variable: 'Y' });
    const respond = (frame: Record<string, unknown>, value: string) =>
      transport.receive({
        type: 'RESTResponse',
        request_id: frame.request_id,
        transaction_id: frame.transaction_id,
        status_code: 200,
        reason_phrase: 'OK',
        content_type: 'application/json',
        message_body: JSON.stringify({ value }),
      });
    respond(frames[1]!, 'from-b');
    respond(frames[0]!, 'from-a');
    await expect(first).resolves.toEqual({ value: 'from-a' });
    await expect(second).resolves.toEqual({ value: 'from-b' });
  });

  it('turns an error status into the same HttpError as over HTTP (recorded 404)', async () => {
    const frames: Record<string, unknown>[] = [];
    const transport = new SocketRestTransport({ sendFrame: (t) => frames.push(JSON.parse(t)) });
    const client = socketClient(transport);
    const failure = client
      .channel('no-such-channel')
      .get()
      .catch((e: unknown) => e);
    expect(frames[0]).toMatchObject({ method: 'GET', uri: 'channels/no-such-channel' });
    // The reply a real server sent over its event socket (scenario 21 of the recorded traces).
    transport.receive({
      type: 'RESTResponse',
      transaction_id: frames[0]!.transaction_id,
      request_id: frames[0]!.request_id,
      status_code: 404,
      reason_phrase: 'Not Found',
      uri: 'channels/no-such-channel',
      content_type: 'application/json',
      message_body: '{"message":"Channel not found"}',
      application: 'demo-app',
    });
    const error = (await failure) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(404);
    expect(error.serverMessage).toBe('Channel not found');
    expect(error.isResourceGone).toBe(true);
  });

  it('times out on the client clock like HTTP, and drops the late reply', async () => {
    const clock = new VirtualClock();
    const frames: Record<string, unknown>[] = [];
    const transport = new SocketRestTransport({ sendFrame: (t) => frames.push(JSON.parse(t)) });
    const client = createRestClient({
      url: 'http://pbx.invalid/ari',
      username: '',
      password: '',
      segment: 'asterisk',
      clock,
      timeoutMs: 2000,
      transport,
    });
    const failure = client.asterisk.ping().then(
      () => undefined,
      (e: unknown) => e as RingflowError,
    );
    await clock.advance(2000);
    expect((await failure)?.code).toBe('TIMEOUT');
    expect(transport.pending).toBe(0);
    expect(
      transport.receive({ type: 'RESTResponse', request_id: frames[0]!.request_id, status_code: 200 }),
    ).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('fails waiting and later requests with NETWORK when the socket is lost', async () => {
    const transport = new SocketRestTransport({ sendFrame: () => {} });
    const client = socketClient(transport);
    const failureOf = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e as RingflowError,
      );
    const waiting = failureOf(client.channel('c1').answer());
    transport.connectionLost('the socket closed (1006)');
    expect((await waiting)?.code).toBe('NETWORK');
    expect((await waiting)?.message).toContain('the socket closed (1006)');
    const later = await failureOf(client.channel('c1').answer());
    expect(later?.code).toBe('NETWORK');
  });

  it('leaves events to the caller', () => {
    const transport = new SocketRestTransport({ sendFrame: () => {} });
    expect(transport.receive({ type: 'StasisStart', application: 'ow-app' })).toBe(false);
  });

  it('downloads binary files over the fallback transport, or says how to get them', async () => {
    const wav = new Uint8Array([0x52, 0x49, 0x46, 0x46]);
    const paths: string[] = [];
    const fallback: RestTransport = {
      async send(request) {
        paths.push(request.path);
        return { status: 200, headers: { 'content-type': 'audio/wav' }, binary: wav };
      },
    };
    const frames: string[] = [];
    const withFallback = socketClient(
      new SocketRestTransport({ sendFrame: (t) => frames.push(t), fallback }),
    );
    await expect(withFallback.recording('t1').getStoredFile()).resolves.toEqual(wav);
    expect(paths).toEqual(['/recordings/stored/t1/file']);
    expect(frames).toEqual([]);

    const without = socketClient(new SocketRestTransport({ sendFrame: () => {} }));
    const error = (await without
      .recording('t1')
      .getStoredFile()
      .catch((e: unknown) => e)) as RingflowError;
    expect(error.code).toBe('CONFIG');
    expect(error.message).toContain("server's HTTP address");
  });
});
