import type { PcmAudio } from '../speech/SpeechProviders.ts';

/** slin16 on a media socket: signed 16-bit little-endian samples at 16 kHz, 20 ms frames of 640 bytes. */
export const SLIN16_RATE = 16_000;
export const FRAME_MS = 20;

/** The samples of slin16 bytes (an odd last byte is dropped). */
export function samplesOfSlin(bytes: Uint8Array): Int16Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Int16Array(bytes.byteLength >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
  return samples;
}

/** slin bytes of samples. */
export function slinOfSamples(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true);
  return bytes;
}

/**
 * Audio at another rate, by linear interpolation (speech providers may answer at their own rate,
 * espeak-ng at 22050 Hz).
 */
export function resample(audio: PcmAudio, rate: number): PcmAudio {
  if (audio.sampleRate === rate || audio.samples.length === 0)
    return { sampleRate: rate, samples: audio.samples };
  const ratio = audio.sampleRate / rate;
  const out = new Int16Array(Math.floor(audio.samples.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const at = i * ratio;
    const k = Math.floor(at);
    const a = audio.samples[k]!;
    const b = audio.samples[Math.min(k + 1, audio.samples.length - 1)]!;
    out[i] = Math.round(a + (b - a) * (at - k));
  }
  return { sampleRate: rate, samples: out };
}

/** Pads samples with silence to a whole number of frames (a server drops a partial frame). */
export function wholeFrames(samples: Int16Array, samplesPerFrame: number): Int16Array {
  const frames = Math.ceil(samples.length / samplesPerFrame);
  if (frames * samplesPerFrame === samples.length) return samples;
  const out = new Int16Array(frames * samplesPerFrame);
  out.set(samples);
  return out;
}
