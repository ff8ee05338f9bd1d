import {
  EspeakNgTextToSpeech,
  PocketsphinxSpeechToText,
  type PcmAudio,
  type Transcript,
} from '@ringflow/runtime';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';

/**
 * The built-in local speech providers end to end: what espeak-ng says, pocketsphinx hears.
 * pocketsphinx with the generic en-us model is imperfect; the phrases and the words asserted
 * are the ones it gets every time from espeak-ng's en-us voice (checked by running it).
 */

const tts = new EspeakNgTextToSpeech();
const stt = new PocketsphinxSpeechToText();

/** Feeds audio to a recognition session in 20 ms frames, as a media socket delivers it, then ends it. */
async function transcribe(audio: PcmAudio): Promise<Transcript[]> {
  const session = stt.start({ sampleRate: audio.sampleRate, language: 'en-US' });
  const all = firstValueFrom(session.transcripts$.pipe(toArray()));
  const frame = (audio.sampleRate * 20) / 1000;
  for (let at = 0; at < audio.samples.length; at += frame) {
    session.write({ sampleRate: audio.sampleRate, samples: audio.samples.subarray(at, at + frame) });
  }
  session.end();
  return all;
}

const silence = (sampleRate: number, ms: number): PcmAudio => ({
  sampleRate,
  samples: new Int16Array((sampleRate * ms) / 1000),
});

function join(...parts: PcmAudio[]): PcmAudio {
  const samples = new Int16Array(parts.reduce((n, p) => n + p.samples.length, 0));
  let at = 0;
  for (const part of parts) {
    samples.set(part.samples, at);
    at += part.samples.length;
  }
  return { sampleRate: parts[0]!.sampleRate, samples };
}

describe('espeak-ng speaks, pocketsphinx transcribes', () => {
  it('"where is my order" at 16 kHz comes back word for word', async () => {
    const audio = await tts.synthesize('where is my order', { sampleRate: 16_000 });
    expect(audio.sampleRate).toBe(16_000);
    expect(audio.samples.length / 16_000).toBeGreaterThan(0.8); // about a second of speech
    const transcripts = await transcribe(join(silence(16_000, 300), audio, silence(16_000, 800)));
    expect(transcripts).toEqual([{ text: 'where is my order', final: true }]);
  }, 60_000);

  it('at 8 kHz (a phone line: the en-us model is trained at 16 kHz) only "order" comes through', async () => {
    const audio = await tts.synthesize('where is my order', { sampleRate: 8000 });
    const transcripts = await transcribe(join(silence(8000, 300), audio, silence(8000, 800)));
    expect(transcripts).toHaveLength(1);
    expect(transcripts[0]!.text).toMatch(/\border\b/);
  }, 60_000);

  it('two utterances with a pause between give two final transcripts, in order', async () => {
    const first = await tts.synthesize('where is my order', { sampleRate: 16_000 });
    const second = await tts.synthesize('where is my order', { sampleRate: 16_000 });
    const transcripts = await transcribe(
      join(silence(16_000, 300), first, silence(16_000, 1200), second, silence(16_000, 800)),
    );
    expect(transcripts.map((t) => t.text)).toEqual(['where is my order', 'where is my order']);
  }, 60_000);

  it('silence gives no transcript', async () => {
    expect(await transcribe(silence(16_000, 2000))).toEqual([]);
  }, 60_000);
});

describe('the local providers report what is wrong', () => {
  it('a missing program says what to install', async () => {
    const missing = new EspeakNgTextToSpeech({ program: 'espeak-ng-not-installed' });
    await expect(missing.synthesize('hello', { sampleRate: 8000 })).rejects.toThrow(
      "speech: the program 'espeak-ng-not-installed' was not found: install it (apt-get install -y espeak-ng)",
    );
    const deaf = new PocketsphinxSpeechToText({ program: 'pocketsphinx-not-installed' });
    const audio = await tts.synthesize('where is my order', { sampleRate: 16_000 });
    const session = deaf.start({ sampleRate: 16_000 });
    const outcome = firstValueFrom(session.transcripts$).then(
      () => 'a transcript',
      (error: Error) => error.message,
    );
    session.write(audio);
    session.end();
    expect(await outcome).toBe(
      "speech: the program 'pocketsphinx-not-installed' was not found: install it (apt-get install -y pocketsphinx pocketsphinx-en-us)",
    );
  }, 60_000);

  it('refuses a bad voice, rate or language before running anything, and stops when aborted', async () => {
    await expect(tts.synthesize('hi', { sampleRate: 8000, voice: 'en; rm -rf /' })).rejects.toThrow(
      /is not a voice name/,
    );
    await expect(tts.synthesize('hi', { sampleRate: 100 })).rejects.toThrow(/sampleRate must be/);
    expect(() => stt.start({ sampleRate: 16_000, language: 'fr-FR' })).toThrow(
      /built-in model is US English/,
    );
    const controller = new AbortController();
    const spoken = tts.synthesize('a long sentence that takes a while to say '.repeat(50), {
      sampleRate: 8000,
      signal: controller.signal,
    });
    controller.abort(new Error('the caller hung up'));
    await expect(spoken).rejects.toThrow('the caller hung up');
  }, 60_000);
});
