import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { decodeMediaAudio, encodeMediaAudio, mediaFormat, resampleSamples } from '@ringflow/client';
import type { HeardAudio, Simulator } from '@ringflow/simulator';
import { type WebSocket, WebSocketServer } from 'ws';
import { CallerVoice } from './CallerVoice.ts';
import { LINE_FRAME_BYTES, LINE_SAMPLE_RATE, type LineMessage } from './feedMessages.ts';

const slin16 = mediaFormat('slin16')!;
/** What a call's caller heard lately (the last 3 s), for a page that placed it and opens its line late. */
const BACKLOG_MS = 3000;
const BACKLOG_FRAMES = BACKLOG_MS / 20;
/** The calls whose recent audio is kept (the one heard of longest ago is forgotten beyond). */
const BACKLOG_CALLS = 20;

/**
 * The calls' lines of `ringflow dev` (see LINE_PATH in feedMessages.ts): one WebSocket per page
 * that has a call selected. Each gets the application audio its call's caller hears, frame by frame
 * as the simulator plays it (its clock: nothing while the time is paused, one frame per 20 ms
 * step), and a flush when the bot cuts its audio short; what the page sends is the caller's voice,
 * carried to the media sockets of the caller's bridge (dropped while the time is paused: the line
 * stands still); when that voice talks or falls silent is told (`talked`: the call's record). A
 * page's frame that is not 640 bytes closes its line with 1007 saying so.
 * A page that placed the call asks for what it missed (`&placed=1`): the frames its caller heard
 * in the last 3 s before the line opened (the bot's greeting may come before the reply that names
 * the call), unless flushed meanwhile.
 *
 * @example
 * const lines = new CallLines(sim, { paused: () => time.state().paused, now: () => time.clock.now() });
 * routes.upgrades = { '/api/line': (req, socket, head) => lines.accept(req, socket, head) };
 */
export class CallLines {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    perMessageDeflate: false,
  });
  private readonly lines = new Map<WebSocket, string>();
  /** The frames each call's caller heard lately (by call, the one heard of longest ago first). */
  private readonly backlog = new Map<string, { readonly at: number; readonly pcm: Uint8Array }[]>();
  private readonly stops: (() => void)[];

  constructor(
    private readonly sim: Simulator,
    private readonly time: { readonly paused: () => boolean; readonly now: () => number },
    /** The caller of `call` started or stopped talking on the line (their voice's level). */
    private readonly talked: (call: string, talking: boolean) => void = () => {},
  ) {
    this.stops = [
      sim.media.onPlayed((frame) => {
        const pcm = toLineAudio(frame.format, frame.audio);
        if (!pcm) return;
        for (const ws of this.linesOf(frame.hearers)) ws.send(pcm);
        for (const call of frame.hearers) this.keep(call, frame.at, pcm);
      }),
      sim.media.onHeard((audio: HeardAudio) => {
        if (!audio.flushed) return;
        const flush: LineMessage = { type: 'flush' };
        for (const ws of this.linesOf(audio.hearers)) ws.send(JSON.stringify(flush));
        for (const call of audio.hearers) this.backlog.delete(call);
      }),
    ];
  }

  /** Takes a page's upgrade to `api/line?call=<id>` (400 without a call). */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const call = query.get('call');
    if (!call) {
      const text = 'api/line needs the call: api/line?call=<id>';
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\nConnection: close\r\n\r\n${text}`,
      );
      return;
    }
    const placed = query.get('placed') === '1';
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      // What the page missed of the call it placed, before it goes on live.
      const since = this.time.now() - BACKLOG_MS;
      if (placed) for (const { at, pcm } of this.backlog.get(call) ?? []) if (at >= since) ws.send(pcm);
      this.lines.set(ws, call);
      const voice = new CallerVoice((talking) => this.talked(call, talking));
      ws.on('close', () => {
        this.lines.delete(ws);
        voice.end();
      });
      ws.on('message', (data, binary) => {
        if (binary) this.spoken(ws, call, data as Buffer, voice);
      });
    });
  }

  /** Closes every line (the console stops): pages reopen theirs on whatever serves next. */
  close(): void {
    for (const stop of this.stops) stop();
    for (const ws of this.lines.keys()) ws.close(1001);
    this.lines.clear();
    this.backlog.clear();
    this.wss.close();
  }

  private keep(call: string, at: number, pcm: Uint8Array): void {
    let frames = this.backlog.get(call);
    if (frames) this.backlog.delete(call);
    frames ??= [];
    // Set again: the call heard of last is the newest entry.
    this.backlog.set(call, frames);
    if (this.backlog.size > BACKLOG_CALLS) this.backlog.delete(this.backlog.keys().next().value!);
    frames.push({ at, pcm });
    if (frames.length > BACKLOG_FRAMES) frames.shift();
  }

  private spoken(ws: WebSocket, call: string, data: Buffer, voice: CallerVoice): void {
    if (data.byteLength !== LINE_FRAME_BYTES) {
      ws.close(
        1007,
        `a frame of the caller's voice is ${LINE_FRAME_BYTES} bytes of slin16, got ${data.byteLength}`,
      );
      return;
    }
    if (this.time.paused()) return;
    const frame = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    try {
      // Only a voice that reached a bot is the caller talking (the level is told otherwise).
      if (this.sim.driver.speak(call, frame).length > 0) voice.frame(frame);
    } catch {
      // The call has ended: its last words reach nobody.
    }
  }

  private linesOf(hearers: readonly string[]): WebSocket[] {
    const open: WebSocket[] = [];
    for (const [ws, call] of this.lines)
      if (hearers.includes(call) && ws.readyState === ws.OPEN) open.push(ws);
    return open;
  }
}

/** A frame of application audio as the line carries it (slin16), or undefined for a codec it cannot decode. */
function toLineAudio(formatName: string, audio: Uint8Array): Uint8Array | undefined {
  const format = mediaFormat(formatName);
  if (format?.kind !== 'framed' || format.encoding === 'opaque') return undefined;
  if (format.name === slin16.name) return audio;
  return encodeMediaAudio(
    slin16,
    resampleSamples(decodeMediaAudio(format, audio), format.sampleRate, LINE_SAMPLE_RATE),
  );
}
