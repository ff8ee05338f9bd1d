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
