import type { MediaFormat } from './mediaFormats.ts';

/**
 * Audio the simulator sends for sound that reaches a media channel (a playback, a caller who
 * talks): a 440 Hz tone in the channel's format, frame after frame with a continuous phase. The
 * simulator models *that* sound flows, not what is said; a steady tone is easy to recognise.
 */
export class ToneFrames {
  private sample = 0;

  constructor(private readonly format: Extract<MediaFormat, { kind: 'framed' }>) {}

  next(): Uint8Array {
    const { frameBytes, sampleRate, encoding } = this.format;
    const frame = new Uint8Array(frameBytes);
    const samples = encoding === 'slin' ? frameBytes / 2 : frameBytes;
    const view = new DataView(frame.buffer);
    for (let i = 0; i < samples; i++) {
      const value = Math.round(8000 * Math.sin((2 * Math.PI * 440 * this.sample++) / sampleRate));
      if (encoding === 'slin') view.setInt16(i * 2, value, true);
      else if (encoding === 'ulaw') frame[i] = linearToUlaw(value);
      else if (encoding === 'alaw') frame[i] = linearToUlaw(value) ^ 0x55;
      else frame[i] = (value >> 8) & 0xff;
    }
    return frame;
  }
}

/** G.711 µ-law encoding of one 16-bit sample. */
export function linearToUlaw(sample: number): number {
  const BIAS = 0x84;
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(sample), 32635) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  magnitude = ~(sign | (exponent << 4) | mantissa);
  return magnitude & 0xff;
}

/** One frame of silence in the format (µ-law 0xff, A-law 0xd5, linear 0). */
export function silentFrame(format: Extract<MediaFormat, { kind: 'framed' }>): Uint8Array {
  const fill = format.encoding === 'ulaw' ? 0xff : format.encoding === 'alaw' ? 0xd5 : 0;
  return new Uint8Array(format.frameBytes).fill(fill);
}
