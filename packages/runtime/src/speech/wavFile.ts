import type { PcmAudio } from './SpeechProviders.ts';

/**
 * Reads a RIFF/WAVE file of 16-bit PCM (mono, or several channels averaged to one). The sizes
 * in the header may be wrong: a program that writes WAV to a pipe (espeak-ng --stdout) cannot
 * know them and writes 0x7ffff000; the data then runs to the end of the bytes.
 *
 * @example
 * const audio = readWav(await readFile('hello.wav')); // { sampleRate: 22050, samples: Int16Array }
 */
export function readWav(bytes: Uint8Array): PcmAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || text(0) !== 'RIFF' || text(8) !== 'WAVE') {
    throw new Error(`not a WAV file: it does not start with RIFF....WAVE (${bytes.length} bytes)`);
  }
  let sampleRate: number | undefined;
  let channels = 1;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = text(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      const formatTag = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      const bits = view.getUint16(body + 14, true);
      if ((formatTag !== 1 && formatTag !== 0xfffe) || bits !== 16 || channels < 1) {
        throw new Error(
          `WAV: only 16-bit PCM is read (format ${formatTag}, ${bits} bits, ${channels} channels)`,
        );
      }
    } else if (id === 'data') {
      if (sampleRate === undefined) throw new Error('WAV: the data chunk comes before the fmt chunk');
      const end = Math.min(bytes.length, body + size);
      const frames = Math.floor((end - body) / (2 * channels));
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += view.getInt16(body + (i * channels + c) * 2, true);
        samples[i] = Math.round(sum / channels);
      }
      return { sampleRate, samples };
    }
    at = body + size + (size % 2);
  }
  throw new Error('WAV: no data chunk');
}

/** A WAV file (16-bit PCM, mono) of the audio: for saving what a recogniser heard, or feeding a program. */
export function writeWav(audio: PcmAudio): Uint8Array {
  const dataLength = audio.samples.length * 2;
  const bytes = new Uint8Array(44 + dataLength);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) bytes[at + i] = value.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataLength, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, audio.sampleRate, true);
  view.setUint32(28, audio.sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataLength, true);
  for (let i = 0; i < audio.samples.length; i++) view.setInt16(44 + i * 2, audio.samples[i]!, true);
  return bytes;
}
