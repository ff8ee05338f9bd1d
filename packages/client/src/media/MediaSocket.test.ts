import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/VirtualClock.ts';
import type { MediaConnection } from './MediaConnection.ts';
import type { MediaEvent } from './mediaEvents.ts';
import { MediaSocket, type MediaProblem } from './MediaSocket.ts';

/**
 * The recorded media exchange (fixtures/media-texts.jsonl, from a real server) replayed against
 * a MediaSocket: the server's recorded messages are delivered on an in-process connection, the
 * application's side is driven through the MediaSocket's API, and what it writes is compared
 * with what the recorded application wrote. Virtual time.
 */

interface RecordedText {
  readonly case: string;
  readonly t: number;
  readonly direction: 'in' | 'out';
  readonly message: string;
}

const RECORDED: RecordedText[] = readFileSync(
  new URL('./fixtures/media-texts.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as RecordedText);

/** The recorded message of `caseName` that starts with `start` (the first, or the n-th). */
function recorded(caseName: string, direction: 'in' | 'out', start: string, nth = 0): string {
  const found = RECORDED.filter((r) => r.case.startsWith(caseName) && r.direction === direction).filter((r) =>
    r.message.startsWith(start),
  )[nth];
  if (!found) throw new Error(`no recorded ${direction} message '${start}' in ${caseName}`);
  return found.message;
}

/** The server's end of an in-process connection: delivers texts, records what the socket sends. */
class ScriptedServer implements MediaConnection {
  readonly texts: { t: number; text: string }[] = [];
  readonly frames: { t: number; length: number }[] = [];
  closedWith: number | undefined;
  private readonly textHandlers: ((text: string) => void)[] = [];
  private readonly closeHandlers: ((code: number) => void)[] = [];

  constructor(private readonly clock: VirtualClock) {}

  get open(): boolean {
    return this.closedWith === undefined;
  }
  sendText(text: string): void {
    this.texts.push({ t: this.clock.now(), text });
  }
  sendBinary(data: Uint8Array): void {
    this.frames.push({ t: this.clock.now(), length: data.length });
  }
  close(code = 1000): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = code;
    for (const handler of this.closeHandlers.splice(0)) handler(code);
  }
  onText(handler: (text: string) => void): void {
    this.textHandlers.push(handler);
  }
  onBinary(): void {}
  onClose(handler: (code: number) => void): void {
    this.closeHandlers.push(handler);
  }
  /** The server sends a text message. */
  deliver(text: string): void {
    for (const handler of this.textHandlers) handler(text);
  }
  sentTexts(): string[] {
    return this.texts.map((m) => m.text);
  }
}

function setUp() {
  const clock = new VirtualClock(0);
  const server = new ScriptedServer(clock);
  const socket = new MediaSocket(server, { clock, aheadFrames: 2 });
  const events: MediaEvent[] = [];
  const problems: MediaProblem[] = [];
  let completed = false;
  socket.events$.subscribe({ next: (e) => events.push(e), complete: () => (completed = true) });
  socket.problems$.subscribe((p) => problems.push(p));
  return { clock, server, socket, events, problems, completed: () => completed };
}

describe('MediaSocket against the recorded exchange (case a, plain text, the server connected out)', () => {
  it('starts on MEDIA_START, paces 160-byte frames, and writes the recorded commands', async () => {
    const { clock, server, socket, events } = setUp();
    expect(() => socket.play(new Uint8Array(160))).toThrow(/before MEDIA_START/);
    server.deliver(recorded('a-', 'in', 'MEDIA_START'));
    const { start, format, controlFormat } = await socket.started;
    expect(start).toMatchObject({ channel_id: 'mt-a-ws', optimal_frame_size: 160 });
    expect(format).toMatchObject({ name: 'ulaw', frameBytes: 160 });
    expect(controlFormat).toBe('plain-text');

    // 2 s of audio and a mark (the recorded application sent 100 frames, then MARK_MEDIA m1).
    socket.play(new Uint8Array(160 * 100).fill(0x55));
    const m1 = socket.mark('m1');
    expect(server.frames).toHaveLength(3); // one frame and 40 ms of lead at once
    await clock.advance(1000);
    expect(server.frames).toHaveLength(53); // then one per 20 ms
    expect(server.sentTexts()).toEqual([]);
    await clock.advance(1000);
    expect(server.frames).toHaveLength(100);
    expect(new Set(server.frames.map((f) => f.length))).toEqual(new Set([160]));
    for (let i = 3; i < 100; i++) expect(server.frames[i]!.t - server.frames[i - 1]!.t).toBe(20);
    expect(server.sentTexts()).toEqual([recorded('a-', 'out', 'MARK_MEDIA m1')]);

    const status = socket.status();
    expect(server.sentTexts().at(-1)).toBe(recorded('a-', 'out', 'GET_STATUS'));
    server.deliver(recorded('a-', 'in', 'STATUS', 1)); // queue_length:50
    expect(await status).toMatchObject({ event: 'STATUS', queue_length: 50, queue_full: false });
    server.deliver(recorded('a-', 'in', 'MEDIA_MARK_PROCESSED m1'));
    expect(await m1).toBe('played');

    // Barge-in: FLUSH_MEDIA; the mark behind the flushed audio ends 'flushed' (it never comes back).
    socket.play(new Uint8Array(160 * 100));
    const m2 = socket.mark('m2');
    await clock.advance(300);
    socket.flush();
    expect(await m2).toBe('flushed');
    expect(server.sentTexts().at(-1)).toBe(recorded('a-', 'out', 'FLUSH_MEDIA'));
    const framesAtFlush = server.frames.length;
    await clock.advance(1000);
    expect(server.frames).toHaveLength(framesAtFlush);

    const drained = socket.queueDrained();
    expect(server.sentTexts().at(-1)).toBe(recorded('a-', 'out', 'REPORT_QUEUE_DRAINED'));
    server.deliver(recorded('a-', 'in', 'QUEUE_DRAINED'));
    await drained;

    socket.pausePlayout(true);
    socket.pausePlayout(false);
    expect(server.sentTexts().slice(-2)).toEqual([
      recorded('a-', 'out', 'PAUSE_MEDIA'),
      recorded('a-', 'out', 'CONTINUE_MEDIA'),
    ]);
    expect(() => socket.setDirection('out')).toThrow(/needs the JSON control format/);

    server.deliver(recorded('a-', 'in', 'DTMF_END digit:1'));
    expect(events.at(-1)).toEqual({ event: 'DTMF_END', digit: '1', channel_id: 'mt-a-ws' });
  });

  it('holds its audio from MEDIA_XOFF to MEDIA_XON', async () => {
    const { clock, server, socket } = setUp();
    server.deliver(recorded('a-', 'in', 'MEDIA_START'));
    await socket.started;
    socket.play(new Uint8Array(160 * 200));
    await clock.advance(200);
    const beforeXoff = server.frames.length;
    server.deliver(recorded('a-', 'in', 'MEDIA_XOFF'));
    await clock.advance(1000);
    expect(server.frames).toHaveLength(beforeXoff);
    expect(socket.pendingFrames).toBe(200 - beforeXoff);
    server.deliver(recorded('a-', 'in', 'MEDIA_XON'));
    await clock.advance(1000);
    expect(server.frames.length).toBeGreaterThan(beforeXoff + 45);
  });

  it('closes cleanly when the server hangs up: marks end closed, observables complete, no more sending', async () => {
    const { server, socket, completed } = setUp();
    server.deliver(recorded('a-', 'in', 'MEDIA_START'));
    await socket.started;
    socket.play(new Uint8Array(160 * 50));
    const mark = socket.mark();
    socket.hangup();
    expect(server.sentTexts().at(-1)).toBe(recorded('a2-', 'out', 'HANGUP'));
    server.close(1000); // the server ends the channel and closes with 1000
    expect(await socket.closed).toEqual({ code: 1000 });
    expect(await mark).toBe('closed');
    expect(completed()).toBe(true);
    expect(socket.state).toBe('closed');
    expect(() => socket.play(new Uint8Array(160))).toThrow(/after the connection closed/);
  });
});

describe('MediaSocket against the recorded exchange (case e, JSON control messages)', () => {
  it('answers in the form MEDIA_START came in, as the recorded application wrote', async () => {
    const { server, socket, events, problems } = setUp();
    server.deliver(recorded('e-', 'in', '{"event":"MEDIA_START"'));
    const { controlFormat, start } = await socket.started;
    expect(controlFormat).toBe('json');
    expect(start.channel_variables).toMatchObject({ MT_CASE: expect.any(String) });
    const status = socket.status();
    server.deliver(recorded('e-', 'in', '{"event":"STATUS"'));
    expect(await status).toMatchObject({ queue_length: 0 });
    const j1 = socket.mark('j1');
    server.deliver(recorded('e-', 'in', '{"event":"MEDIA_MARK_PROCESSED"'));
    expect(await j1).toBe('played');
    socket.setDirection('out');
    socket.setDirection('in');
    const j2 = socket.mark('j2');
    server.deliver(recorded('e-', 'in', '{"event":"ERROR"')); // MARK_MEDIA not supported while media direction is 'in'
    expect(await j2).toBe('refused');
    socket.hangup();
    expect(server.sentTexts()).toEqual([
      recorded('e-', 'out', '{"command":"GET_STATUS"'),
      recorded('e-', 'out', '{"command":"MARK_MEDIA"'),
      recorded('e-', 'out', '{"command":"SET_MEDIA_DIRECTION","direction":"out"'),
      recorded('e-', 'out', '{"command":"SET_MEDIA_DIRECTION","direction":"in"'),
      recorded('e-', 'out', '{"command":"MARK_MEDIA","correlation_id":"j2"'),
      recorded('e-', 'out', '{"command":"HANGUP"'),
    ]);
    expect(events.find((e) => e.event === 'ERROR')).toMatchObject({
      error_text: "MARK_MEDIA not supported while media direction is 'in'",
    });
    server.deliver('{"event":"MEDIA_SOMETHING_NEW"}');
    server.deliver('not a message');
    expect(problems.map((p) => p.reason)).toEqual([
      'unknown event MEDIA_SOMETHING_NEW',
      "'not' is not an event name",
    ]);
  });
});

describe('MediaSocket on a passthrough codec (case c5: opus, optimal_frame_size 0)', () => {
  it('sends audio as given and refuses MARK and FLUSH, which the server does not support', async () => {
    const { server, socket } = setUp();
    server.deliver(recorded('c5-', 'in', 'MEDIA_START'));
    const { format } = await socket.started;
    expect(format).toEqual({ kind: 'passthrough', name: 'opus' });
    socket.play(new Uint8Array(77));
    socket.play(new Uint8Array(93));
    expect(server.frames.map((f) => f.length)).toEqual([77, 93]);
    await expect(socket.mark()).rejects.toThrow(/MARK_MEDIA is not supported for passthrough format opus/);
    expect(() => socket.flush()).toThrow(/FLUSH_MEDIA is not supported for passthrough format opus/);
  });
});

describe('MediaSocket before MEDIA_START', () => {
  it('gives up after startTimeoutMs, and when the connection closes first', async () => {
    const clock = new VirtualClock(0);
    const silent = new ScriptedServer(clock);
    const waiting = new MediaSocket(silent, { clock, startTimeoutMs: 5000 });
    await clock.advance(5000);
    await expect(waiting.started).rejects.toThrow('media socket: no MEDIA_START within 5000 ms');
    expect(silent.closedWith).toBe(1000);

    const dropped = new ScriptedServer(clock);
    const early = new MediaSocket(dropped, { clock });
    dropped.deliver('MEDIA_XON');
    dropped.close(1006);
    await expect(early.started).rejects.toThrow('media socket closed (1006) before MEDIA_START');
  });
});
