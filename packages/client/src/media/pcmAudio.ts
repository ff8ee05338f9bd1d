import { alawToLinear, linearToAlaw, linearToUlaw, ulawToLinear } from './g711.ts';
import type { MediaFormat } from './mediaFormats.ts';

/**
 * Audio of a media socket as 16-bit samples and back: µ-law and A-law bytes, or signed 16-bit
 * little-endian (the `slin` formats). Codecs the server passes through (opus...) and opaque
 * ones (g722) are the application's to decode: they throw.
 *
 * @example
 * const samples = decodeMediaAudio(mediaFormat('ulaw')!, frame); // Int16Array(160), 8 kHz
 * socket.play(encodeMediaAudio(mediaFormat('ulaw')!, samples));
 */
export function decodeMediaAudio(format: MediaFormat, bytes: Uint8Array): Int16Array {
  const encoding = pcmEncoding(format);
  if (encoding === 'slin') {
    const samples = new Int16Array(bytes.length >> 1);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
    return samples;
  }
  const decode = encoding === 'ulaw' ? ulawToLinear : alawToLinear;
  const samples = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) samples[i] = decode(bytes[i]!);
  return samples;
}

/** 16-bit samples as the bytes of `format` (see {@link decodeMediaAudio}). */
export function encodeMediaAudio(format: MediaFormat, samples: Int16Array): Uint8Array {
  const encoding = pcmEncoding(format);
  if (encoding === 'slin') {
    const bytes = new Uint8Array(samples.length * 2);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true);
    return bytes;
  }
  const encode = encoding === 'ulaw' ? linearToUlaw : linearToAlaw;
  const bytes = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) bytes[i] = encode(samples[i]!);
  return bytes;
}

function pcmEncoding(format: MediaFormat): 'ulaw' | 'alaw' | 'slin' {
  if (format.kind === 'framed' && format.encoding !== 'opaque') return format.encoding;
  throw new TypeError(
    `media format '${format.name}' is not PCM or G.711: decode it yourself (ulaw, alaw and slin* are built in)`,
  );
}

/**
 * 16-bit samples from one rate to another, by linear interpolation (enough for speech between
 * the telephone rates: 8, 16, 22.05, 24 kHz); downsampling first averages each output sample's
 * span, so the high frequencies do not fold back as loudly.
 *
 * @example
 * resampleSamples(espeakOutput, 22050, 8000); // Int16Array of 8 kHz samples
 */
export function resampleSamples(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (!(fromRate > 0 && toRate > 0))
    throw new RangeError(`resampleSamples: rates must be positive (${fromRate} -> ${toRate})`);
  if (fromRate === toRate || samples.length === 0) return samples.slice();
  const ratio = fromRate / toRate;
  const length = Math.floor(samples.length / ratio);
  const out = new Int16Array(length);
  const last = samples.length - 1;
  for (let i = 0; i < length; i++) {
    const position = i * ratio;
    if (ratio > 1) {
      // Average the input span this output sample stands for (a box filter before decimating).
      const from = Math.floor(position);
      const to = Math.min(last, Math.floor(position + ratio) - 1);
      let sum = 0;
      for (let j = from; j <= to; j++) sum += samples[j]!;
      out[i] = Math.round(sum / (to - from + 1));
    } else {
      const j = Math.floor(position);
      const fraction = position - j;
      const a = samples[j]!;
      const b = samples[Math.min(last, j + 1)]!;
      out[i] = Math.round(a + (b - a) * fraction);
    }
  }
  return out;
}
