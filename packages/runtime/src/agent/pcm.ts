/**
 * slin16 on a media socket: signed 16-bit little-endian samples at 16 kHz, 20 ms frames of 640
 * bytes. Decoding, encoding and resampling are the client's (`decodeMediaAudio`,
 * `encodeMediaAudio`, `resampleSamples`), loaded with the rest of its media protocol when a
 * session starts (see session.ts).
 */
export const SLIN16_RATE = 16_000;
export const FRAME_MS = 20;

/** Pads samples with silence to a whole number of frames (a server drops a partial frame). */
export function wholeFrames(samples: Int16Array, samplesPerFrame: number): Int16Array {
  const frames = Math.ceil(samples.length / samplesPerFrame);
  if (frames * samplesPerFrame === samples.length) return samples;
  const out = new Int16Array(frames * samplesPerFrame);
  out.set(samples);
  return out;
}
