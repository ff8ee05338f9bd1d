import { LINE_SAMPLE_RATE } from '../feedMessages.ts';

/**
 * One 20 ms frame of the microphone (float samples at the audio context's rate, 44.1 or 48 kHz) as
 * the call's line carries it: 320 samples at 16 kHz, signed 16-bit. Each output sample is the mean
 * of the input around its place (a box filter: what is above 8 kHz does not fold back as noise).
 *
 * @example toLineFrame(samples960, 48_000) // Int16Array(320)
 */
export function toLineFrame(input: Float32Array, rate: number): Int16Array {
  const length = Math.round((input.length * LINE_SAMPLE_RATE) / rate);
  const ratio = input.length / length;
  const out = new Int16Array(length);
  for (let i = 0; i < length; i++) {
    const from = Math.floor(i * ratio);
    const to = Math.max(from + 1, Math.min(input.length, Math.floor((i + 1) * ratio)));
    let sum = 0;
    for (let j = from; j < to; j++) sum += input[j]!;
    const mean = sum / (to - from);
    out[i] = Math.round(Math.max(-1, Math.min(1, mean)) * 32767);
  }
  return out;
}

/** The frame's bytes on the line (little-endian, whatever the machine). */
export function lineBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true);
  return bytes;
}

/** A frame of the line's bytes as samples. */
export function lineSamples(data: ArrayBuffer): Int16Array {
  const view = new DataView(data);
  const samples = new Int16Array(data.byteLength >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
  return samples;
}

/** The level of a frame (RMS, 0..1). */
export function levelOf(input: Float32Array): number {
  let sum = 0;
  for (const s of input) sum += s * s;
  return input.length === 0 ? 0 : Math.sqrt(sum / input.length);
}
