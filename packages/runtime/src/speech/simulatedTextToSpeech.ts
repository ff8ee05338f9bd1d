import type { PcmAudio, TextToSpeech } from './SpeechProviders.ts';

/** How long the simulated voice takes per word (160 words a minute, about). */
export const SIMULATED_WORD_MS = 360;
const FRAME_MS = 20;
/** Two samples that open a word's first frame: "RF", then the word's length and its UTF-16 code units. */
const MARK = [0x5246, 0x5752] as const;
/** What fills the rest of a word: a square wave loud enough to count as speech. */
const LEVEL = 2000;

/**
 * A text-to-speech provider for tests in virtual time: each word becomes 360 ms of audio whose
 * first frame carries the word itself, so that what a simulated caller heard (the simulator's
 * heard audio, cut short or not by a barge-in) can be read back as words with
 * {@link wordsInSlin}. No sound a person would understand; nothing leaves the process.
 *
 * @example const audio = await new SimulatedTextToSpeech().synthesize('Hello there', { sampleRate: 16000 });
 */
export class SimulatedTextToSpeech implements TextToSpeech {
  readonly name = 'simulated';

  async synthesize(
    text: string,
    options: { readonly sampleRate: number; readonly voice?: string; readonly signal?: AbortSignal },
  ): Promise<PcmAudio> {
    options.signal?.throwIfAborted();
    const frame = (options.sampleRate * FRAME_MS) / 1000;
    const wordSamples = frame * Math.round(SIMULATED_WORD_MS / FRAME_MS);
    const words = text.split(/\s+/).filter((w) => w !== '');
    const samples = new Int16Array(words.length * wordSamples);
    words.forEach((word, i) => {
      const at = i * wordSamples;
      for (let k = 0; k < wordSamples; k++) samples[at + k] = (k >> 4) % 2 === 0 ? LEVEL : -LEVEL;
      const units = word.slice(0, frame - 3);
      samples[at] = MARK[0];
      samples[at + 1] = MARK[1];
      samples[at + 2] = units.length;
      for (let c = 0; c < units.length; c++) samples[at + 3 + c] = units.charCodeAt(c);
    });
    return { sampleRate: options.sampleRate, samples };
  }
}

/**
 * The words in slin audio (signed 16-bit little-endian) made by {@link SimulatedTextToSpeech}:
 * each word whose first frame was played, in order. `frameBytes` is the size of a 20 ms frame
 * (640 for slin16).
 * @example wordsInSlin(heard.audio, 640) // 'Your order shipped'
 */
export function wordsInSlin(audio: Uint8Array, frameBytes = 640): string {
  const view = new DataView(audio.buffer, audio.byteOffset, audio.byteLength);
  const words: string[] = [];
  for (let at = 0; at + 6 <= audio.byteLength; at += frameBytes) {
    if (view.getInt16(at, true) !== MARK[0] || view.getInt16(at + 2, true) !== MARK[1]) continue;
    const length = view.getInt16(at + 4, true);
    let word = '';
    for (let c = 0; c < length && at + 8 + c * 2 <= audio.byteLength; c++)
      word += String.fromCharCode(view.getUint16(at + 6 + c * 2, true));
    words.push(word);
  }
  return words.join(' ');
}
