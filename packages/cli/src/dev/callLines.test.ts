import { join } from 'node:path';
import type { AudioBot } from '@ringflow/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { beep } from '../../../../examples/echo-audio-bot/echoAudioBot.ts';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';

const ECHO_LINE = join(import.meta.dirname, '../../../../examples/echo-audio-bot/echo-line.yaml');
const BOT_URL = 'ws://127.0.0.1:9200/echo';

/** The pitch of slin16 bytes (Hz), from their zero crossings. */
function pitchOf(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let crossings = 0;
  for (let i = 2; i < bytes.byteLength; i += 2)
    if (view.getInt16(i - 2, true) < 0 !== view.getInt16(i, true) < 0) crossings++;
  return crossings / 2 / (bytes.byteLength / 2 / 16_000);
}

/** 20 ms of a tone (400 Hz) at 16 kHz (slin16), starting at frame `n`. */
function voice(n: number, hz = 400): Uint8Array {
  const bytes = new Uint8Array(640);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 320; i++)
    view.setInt16(i * 2, Math.round(8000 * Math.sin((2 * Math.PI * hz * (n * 320 + i)) / 16_000)), true);
  return bytes;
}

const lineUrl = (call: string) => `${dev.url.replace('http:', 'ws:')}api/line?call=${call}`;

/** Waits (10 s at most) until `done`, polling every 20 ms. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 10_000) throw new Error(`not in 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A line of the console: what came (binary frames, text) and how it closed. */
function openLine(url: string) {
  const ws = new WebSocket(url);
  const got = { frames: [] as Uint8Array[], texts: [] as string[], closed: undefined as string | undefined };
  ws.on('message', (data: Buffer, binary) => {
    if (binary) got.frames.push(new Uint8Array(data));
    else got.texts.push(data.toString());
  });
  ws.on('close', (code, reason) => {
    got.closed ??= `${code} ${reason.toString()}`;
  });
  ws.on('error', (error) => {
    got.closed ??= error.message;
  });
  return { ws, got, open: new Promise<void>((resolve) => ws.once('open', () => resolve())) };
}

/**
 * The selected call's line (api/line, a WebSocket) over the wire, with a bot of the audio protocol
 * in process that speaks 3 s of 880 Hz at setup, keeps what it hears of the caller, and clears its
 * audio when the caller talks: the bot's frames come as it plays them, the frames sent are the
 * caller's voice at the bot, its clear is a flush.
 */
let dev: DevConsole;

describe('ringflow dev: the call line', () => {
  const heard: Uint8Array[] = [];
  const bot: AudioBot = (c) => {
    let cleared = false;
    c.onMessage((m) => {
      if (m.type !== 'setup') return;
      // A message holds at most 65535 bytes: 3 s in three.
      const audio = beep(880, 3000);
      for (let at = 0; at < audio.byteLength; at += 32_000) c.sendAudio(audio.subarray(at, at + 32_000));
    });
    c.onAudio((frame) => {
      heard.push(frame);
      if (!cleared && pitchOf(frame) > 300) {
        cleared = true;
        c.send({ type: 'clear' });
      }
    });
  };
  beforeAll(async () => {
    dev = await startDevConsole({ files: [ECHO_LINE], port: 0, sounds: null, audioBots: { [BOT_URL]: bot } });
  });
  afterAll(async () => {
    await dev?.stop();
  });

  it("brings the bot's audio as it plays, carries the caller's voice to the bot, and says when the bot flushes", async () => {
    const reply = await fetch(`${dev.url}api/call`, {
      method: 'POST',
      body: JSON.stringify({ flow: 'echo-line' }),
    });
    const { id } = (await reply.json()) as { id: string };
    const line = openLine(lineUrl(id));
    const other = openLine(lineUrl('call-999'));
    await Promise.all([line.open, other.open]);
    // The bot's 880 Hz, frame by frame in slin16.
    await until(() => line.got.frames.length >= 10, "the bot's frames on the line");
    expect(new Set(line.got.frames.map((f) => f.byteLength))).toEqual(new Set([640]));
    expect(Math.abs(pitchOf(line.got.frames[5]!) - 880)).toBeLessThan(60);
    // The caller talks: the bot hears those very frames (its socket is slin16), and clears its audio.
    for (let n = 0; n < 10; n++) line.ws.send(voice(n));
    await until(() => heard.some((f) => Math.abs(pitchOf(f) - 400) < 40), 'the caller heard by the bot');
    await until(() => line.got.texts.includes('{"type":"flush"}'), 'the flush on the line');
    // Another call's line heard nothing of it.
    expect(other.got.frames).toHaveLength(0);
    // A frame that is not 20 ms of slin16 closes the line, saying why.
    line.ws.send(new Uint8Array(100));
    await until(() => line.got.closed !== undefined, 'the line closed');
    expect(line.got.closed).toBe("1007 a frame of the caller's voice is 640 bytes of slin16, got 100");
    other.ws.close();
  }, 30_000);

  it('gives a page that placed the call what its caller heard before the line opened', async () => {
    const reply = await fetch(`${dev.url}api/call`, {
      method: 'POST',
      body: JSON.stringify({ flow: 'echo-line' }),
    });
    const { id } = (await reply.json()) as { id: string };
    const first = openLine(lineUrl(id));
    await until(() => first.got.frames.length >= 10, "the bot's frames on the line");
    // Opened late by the page that placed the call: the frames from the first on come first.
    const placed = openLine(`${lineUrl(id)}&placed=1`);
    await until(() => placed.got.frames.length >= 10, 'the frames missed');
    expect(placed.got.frames.slice(0, 10)).toEqual(first.got.frames.slice(0, 10));
    first.ws.close();
    placed.ws.close();
  }, 30_000);

  it("drops the caller's voice while the time is paused: the line stands still", async () => {
    heard.length = 0;
    const reply = await fetch(`${dev.url}api/call`, {
      method: 'POST',
      body: JSON.stringify({ flow: 'echo-line' }),
    });
    const { id } = (await reply.json()) as { id: string };
    const line = openLine(lineUrl(id));
    await until(() => line.got.frames.length >= 5, "the bot's frames on the line");
    const clock = (action: string) =>
      fetch(`${dev.url}api/clock`, { method: 'POST', body: JSON.stringify({ action }) });
    await clock('pause');
    for (let n = 0; n < 10; n++) line.ws.send(voice(n));
    // The server has read them (a ping is answered after what came before it) before time runs.
    await new Promise((resolve) => {
      line.ws.once('pong', resolve);
      line.ws.ping();
    });
    await clock('resume');
    // What the caller says once time runs again is heard; what they said while paused never is.
    line.ws.send(voice(0, 600));
    await until(() => heard.some((f) => Math.abs(pitchOf(f) - 600) < 40), 'the words after the pause');
    expect(heard.filter((f) => Math.abs(pitchOf(f) - 400) < 40)).toHaveLength(0);
    line.ws.close();
  }, 30_000);

  it('refuses a line without its call', async () => {
    const line = openLine(`${dev.url.replace('http:', 'ws:')}api/line`);
    await until(() => line.got.closed !== undefined, 'the refusal');
    expect(line.got.closed).toBe('Unexpected server response: 400');
  });
});
