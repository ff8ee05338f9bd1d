import {
  connectMediaSocket,
  createRestClient,
  decodeMediaAudio,
  encodeMediaAudio,
  type MediaSocket,
  MediaSocketServer,
  mediaFormat,
  mediaSocketUrl,
  VirtualClock,
} from '@ringflow/client';
import { EspeakNgTextToSpeech, PocketsphinxSpeechToText, type Transcript } from '@ringflow/runtime';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { until } from '@ringflow/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

/**
 * A spoken turn over the wire, end to end: the caller's speech (synthesised with espeak-ng) is
 * sent on a media socket standing for the caller's voice, the simulator's bridge carries it to
 * the bot's media socket (the server connects out to the bot's MediaSocketServer), the bot
 * hears it through the client's MediaSocket and pocketsphinx transcribes it; the bot's spoken
 * answer goes back the same way and the caller hears it, and pocketsphinx understands that too.
 * slin16 on both sockets: the en-us model wants 16 kHz. Virtual time for the call; the speech
 * programs run in real time.
 */

const SLIN16 = mediaFormat('slin16')!;
const tts = new EspeakNgTextToSpeech();
const stt = new PocketsphinxSpeechToText();

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 3));

/** Speech as a phone sends it: the words, then silence (a line is never quiet of frames). */
async function spoken(text: string, silenceMs = 800): Promise<Uint8Array> {
  const audio = await tts.synthesize(text, { sampleRate: 16_000 });
  const samples = new Int16Array(audio.samples.length + 16 * silenceMs);
  samples.set(audio.samples);
  return encodeMediaAudio(SLIN16, samples);
}

/** Transcribes what a socket receives, frame by frame. */
function listen(socket: MediaSocket): { transcripts: Transcript[]; end(): void } {
  const session = stt.start({ sampleRate: 16_000, language: 'en-US' });
  const transcripts: Transcript[] = [];
  session.transcripts$.subscribe((t) => transcripts.push(t));
  socket.audio$.subscribe((frame) =>
    session.write({ sampleRate: 16_000, samples: decodeMediaAudio(SLIN16, frame) }),
  );
  cleanups.push(() => session.close());
  return { transcripts, end: () => session.end() };
}

describe("a spoken turn over the simulator's media sockets", () => {
  it('the caller says "where is my order", the bot transcribes it and answers, the caller hears "it will arrive tomorrow"', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 28, 12, 0, 0));
    const botMedia = await MediaSocketServer.listen({ path: '/bot', clock });
    cleanups.push(() => botMedia.close());
    const sim = createSimulator({
      clock,
      mediaWebSockets: { clients: [{ id: 'bot-media', uri: botMedia.url, protocols: 'media' }] },
    });
    const wire = await startWireServer(sim, { users: [{ username: 'demo', password: 'demo' }], clock });
    cleanups.push(async () => {
      await wire.close();
      sim.close();
    });
    const ariUrl = `http://127.0.0.1:${wire.port}/ari`;
    const events = new WebSocket(`ws://127.0.0.1:${wire.port}/ari/events?app=bot&api_key=demo:demo`);
    await new Promise((resolve) => events.once('open', resolve));
    cleanups.push(() => events.close());
    const rest = createRestClient({ url: ariUrl, username: 'demo', password: 'demo' });
    cleanups.push(() => rest.close());
    const advance = async (ms: number) => {
      for (let left = ms; left > 0; left -= 20) {
        await clock.advance(20);
        await settle();
      }
    };

    /** Moves virtual time on until `promise` settles (bounded in real time). */
    const advanceUntil = async <T>(what: string, promise: Promise<T>): Promise<T> => {
      let result: { value: T } | undefined;
      void promise.then((value) => {
        result = { value };
      });
      const settled = await until(
        what,
        async () => {
          if (!result) await advance(200);
          return result;
        },
        { timeoutMs: 30_000 },
      );
      return settled.value;
    };

    // The caller, in a bridge with the caller's voice (connects in) and the bot (the server connects out).
    const callerId = sim.driver.placeCall({ app: 'bot', channelId: 'caller' });
    await rest.channel(callerId).answer();
    await rest.bridges.create({ type: 'mixing', bridgeId: 'turn' });
    const voiceChannel = await rest.channels.externalMedia({
      app: 'bot',
      channelId: 'caller-voice',
      transport: 'websocket',
      encapsulation: 'none',
      connection_type: 'server',
      format: 'slin16',
    });
    const voice = await connectMediaSocket({
      url: mediaSocketUrl(ariUrl, String(voiceChannel.channelvars?.MEDIA_WEBSOCKET_CONNECTION_ID)),
      clock,
    });
    const botSocket = botMedia.socketFor('bot-ws');
    await rest.channels.externalMedia({
      app: 'bot',
      channelId: 'bot-ws',
      external_host: 'bot-media',
      transport: 'websocket',
      encapsulation: 'none',
      format: 'slin16',
    });
    let bot: MediaSocket | undefined;
    void botSocket.then((s) => {
      bot = s;
    });
    const botReady = await until('the server to connect to the bot', () => bot, { timeoutMs: 10_000 });
    await Promise.all([voice.started, botReady.started]);
    for (const id of [callerId, 'caller-voice', 'bot-ws'])
      await rest.bridge('turn').addChannel({ channel: id });
    const botHears = listen(botReady);
    const callerHears = listen(voice);

    // The caller talks: the words reach the bot through the bridge, and pocketsphinx gets them.
    voice.play(await spoken('where is my order'));
    expect(await advanceUntil('the caller to finish', voice.mark())).toBe('played');
    const heardByBot = await until('the bot to transcribe the caller', () => botHears.transcripts[0], {
      timeoutMs: 20_000,
    });
    expect(heardByBot).toEqual({ text: 'where is my order', final: true });

    // The bot answers; the caller hears it (the driver says so) and it is understood.
    const answer = await spoken('it will arrive tomorrow');
    botReady.play(answer);
    expect(await advanceUntil('the bot to finish', botReady.mark())).toBe('played');
    const heard = sim.driver.heard(callerId).filter((h) => h.mediaChannelId === 'bot-ws');
    expect(heard).toHaveLength(1);
    // Byte for byte, the last frame padded with silence (the server drops partial frames).
    expect(heard[0]!.audio.subarray(0, answer.length)).toEqual(answer);
    expect(heard[0]!.audio.subarray(answer.length).every((b) => b === 0)).toBe(true);
    expect(heard[0]!.frames).toBe(Math.ceil(answer.length / 640));
    const heardByCaller = await until(
      "the caller's side to transcribe the answer",
      () => callerHears.transcripts[0],
      {
        timeoutMs: 20_000,
      },
    );
    expect(heardByCaller.text).toBe('it will arrive tomorrow');
    botHears.end();
    callerHears.end();
  }, 120_000);
});
