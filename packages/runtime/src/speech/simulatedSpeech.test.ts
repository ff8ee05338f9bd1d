import { describe, expect, it } from 'vitest';
import { encodeMediaAudio, mediaFormat } from '@ringflow/client';
import { SimulatedSpeechToText } from './simulatedSpeechToText.ts';
import { SIMULATED_WORD_MS, SimulatedTextToSpeech, wordsInSlin } from './simulatedTextToSpeech.ts';

describe('simulated speech', () => {
  it('speaks each word for a fixed time, and the words read back from the audio, also cut short', async () => {
    const audio = await new SimulatedTextToSpeech().synthesize('Your order shipped', { sampleRate: 16000 });
    expect(audio.samples.length).toBe((3 * SIMULATED_WORD_MS * 16000) / 1000);
    const bytes = encodeMediaAudio(mediaFormat('slin16')!, audio.samples);
    expect(wordsInSlin(bytes, 640)).toBe('Your order shipped');
    // Flushed after the first word and a bit: the caller heard two words' starts.
    expect(wordsInSlin(bytes.subarray(0, (SIMULATED_WORD_MS / 20 + 1) * 640), 640)).toBe('Your order');
  });

  it('gives up when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('ended'));
    await expect(
      new SimulatedTextToSpeech().synthesize('hi', { sampleRate: 16000, signal: controller.signal }),
    ).rejects.toThrow('ended');
  });

  it('hands what the test says the caller said to every open recognition', () => {
    const stt = new SimulatedSpeechToText();
    const session = stt.start({ sampleRate: 16000 });
    const heard: string[] = [];
    session.transcripts$.subscribe((t) => heard.push(`${t.text}:${t.final}`));
    expect(stt.listening).toBe(true);
    stt.hear('where is my order');
    session.close();
    stt.hear('lost');
    expect(heard).toEqual(['where is my order:true']);
    expect(stt.listening).toBe(false);
  });
});
