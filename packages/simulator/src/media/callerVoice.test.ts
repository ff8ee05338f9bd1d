import { decodeMediaAudio, encodeMediaAudio, mediaFormat, VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../createSimulator.ts';
import type { HeardAudio } from './HeardAudio.ts';
import { createMediaPipePair } from './MediaPipe.ts';
import type { PlayedFrame } from './PlayedFrame.ts';

const ulaw = mediaFormat('ulaw')!;
const slin16 = mediaFormat('slin16')!;

/** 20 ms of a 400 Hz sine at 16 kHz (slin16 bytes), starting at sample `from`. */
function voiceFrame(from: number): Uint8Array {
  const samples = Int16Array.from({ length: 320 }, (_, i) =>
    Math.round(8000 * Math.sin((2 * Math.PI * 400 * (from + i)) / 16_000)),
  );
  return encodeMediaAudio(slin16, samples);
}

/** A caller in a mixing bridge with a bot's media socket (ulaw), the bot's end recorded, on virtual time. */
async function callerWithBot() {
  const clock = new VirtualClock(Date.UTC(2026, 10, 29, 7, 0, 0));
  const bot = { frames: [] as { t: number; data: Uint8Array }[], texts: [] as string[] };
  let botPipe: ReturnType<typeof createMediaPipePair>['app'] | undefined;
  const sim = createSimulator({
    clock,
    mediaWebSockets: {
      clients: [{ id: 'bot-media', uri: 'ws://127.0.0.1:18931/media' }],
      dial: async () => {
        const { server, app } = createMediaPipePair();
        app.onBinary((data) => bot.frames.push({ t: clock.now(), data }));
        app.onText((text) => bot.texts.push(text));
        botPipe = app;
        return server;
      },
    },
  });
  sim.connectEvents({ apps: ['vb'], subscribeAll: false }, () => {});
  const req = async (method: string, path: string, query: Record<string, string> = {}) => {
    const response = await sim.handle({ method, path, query });
    await clock.advance(0);
    expect(response.status).toBeLessThan(300);
  };
  const caller = sim.driver.placeCall({ app: 'vb', channelId: 'caller' });
  await clock.advance(0);
  await req('POST', '/channels/caller/answer');
  await req('POST', '/bridges', { type: 'mixing', bridgeId: 'b1' });
  await req('POST', '/bridges/b1/addChannel', { channel: caller });
  await req('POST', '/channels/externalMedia', {
    app: 'vb',
    channelId: 'bot',
    external_host: 'bot-media',
    transport: 'websocket',
    encapsulation: 'none',
    format: 'ulaw',
  });
  await req('POST', '/bridges/b1/addChannel', { channel: 'bot' });
  return { sim, clock, caller, bot, botPipe: botPipe!, req };
}

describe("a phone's own audio: the caller's voice to a bot, the bot's audio as it plays", () => {
  it("carries the caller's frames to the bot's socket, converted to its format, one a tick, with no tone between", async () => {
    const t = await callerWithBot();
    const frames = [0, 320, 640].map(voiceFrame);
    for (const frame of frames) expect(t.sim.driver.speak(t.caller, frame)).toEqual(['bot']);
    await t.clock.advance(200);
    // Three frames, 20 ms apart, as ulaw; then nothing (the caller said nothing more).
    expect(t.bot.frames.map((f) => f.data.length)).toEqual([160, 160, 160]);
    expect(t.bot.frames[1]!.t - t.bot.frames[0]!.t).toBe(20);
    const heard = decodeMediaAudio(ulaw, t.bot.frames[0]!.data);
    const said = Int16Array.from({ length: 160 }, (_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 400 * i) / 8000)),
    );
    for (let i = 0; i < 150; i++) expect(Math.abs(heard[i]! - said[i]!)).toBeLessThan(1200);
    // ulaw in, as it is.
    const raw = new Uint8Array(160).fill(0x12);
    t.sim.driver.speak(t.caller, raw, 'ulaw');
    await t.clock.advance(20);
    expect(t.bot.frames.at(-1)?.data).toEqual(raw);
  });

  it('reaches no socket out of the bridge or muted, and refuses what is not one frame', async () => {
    const t = await callerWithBot();
    await t.req('POST', '/channels/caller/mute', { direction: 'in' });
    expect(t.sim.driver.speak(t.caller, voiceFrame(0))).toEqual([]);
    await t.req('DELETE', '/channels/caller/mute', { direction: 'in' });
    await t.req('POST', '/bridges/b1/removeChannel', { channel: t.caller });
    expect(t.sim.driver.speak(t.caller, voiceFrame(0))).toEqual([]);
    await t.clock.advance(100);
    expect(t.bot.frames).toHaveLength(0);
    expect(() => t.sim.driver.speak(t.caller, new Uint8Array(100))).toThrow(
      'speak: a frame of slin16 is 640 bytes (20 ms), got 100',
    );
    expect(() => t.sim.driver.speak(t.caller, new Uint8Array(160), 'opus')).toThrow(
      'speak: format must be slin, slin16... or ulaw/alaw, got "opus"',
    );
    expect(() => t.sim.driver.speak('nobody', voiceFrame(0))).toThrow("No live channel 'nobody'");
  });

  it("tells each frame of the bot's audio as it plays, with its hearers; a flush ends it at once", async () => {
    const t = await callerWithBot();
    const played: PlayedFrame[] = [];
    const heard: HeardAudio[] = [];
    t.sim.media.onPlayed((frame) => played.push(frame));
    t.sim.media.onHeard((audio) => heard.push(audio));
    const start = t.clock.now();
    for (let i = 0; i < 50; i++) t.botPipe.sendBinary(new Uint8Array(160).fill(i));
    await t.clock.advance(200);
    // One frame a tick, told as it plays (not when the stretch ends).
    expect(played.length).toBeGreaterThanOrEqual(9);
    expect(played.length).toBeLessThanOrEqual(10);
    expect(heard).toHaveLength(0);
    expect(played[0]).toMatchObject({ mediaChannelId: 'bot', hearers: ['caller'], format: 'ulaw' });
    expect(played.map((f) => f.audio[0])).toEqual(played.map((_, i) => i));
    expect(played[1]!.at - played[0]!.at).toBe(20);
    expect(played[0]!.at - start).toBeLessThanOrEqual(20);
    // The bot flushes (barge-in): the stretch ends now, flushed, and nothing more plays.
    t.botPipe.sendText('FLUSH_MEDIA');
    expect(heard).toMatchObject([{ mediaChannelId: 'bot', flushed: true, hearers: ['caller'] }]);
    const before = played.length;
    await t.clock.advance(1000);
    expect(played).toHaveLength(before);
  });
});
