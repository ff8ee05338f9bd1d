/**
 * How chan_websocket frames a format: the payload bytes of 20 ms (`optimal_frame_size` in
 * MEDIA_START) and the sample layout, or `passthrough` for codecs it does not split into frames
 * (observed: opus reports `optimal_frame_size:0`). One description for the client and the
 * simulator.
 */
export type MediaFormat = FramedMediaFormat | { readonly kind: 'passthrough'; readonly name: string };

/** A format the server splits into frames of `frameBytes` (ulaw 160, slin16 640, observed). */
export interface FramedMediaFormat {
  readonly kind: 'framed';
  readonly name: string;
  /** Bytes of one 20 ms frame. */
  readonly frameBytes: number;
  readonly sampleRate: number;
  /** How samples are stored: one G.711 byte, signed 16-bit little-endian, or a codec's bytes. */
  readonly encoding: 'ulaw' | 'alaw' | 'slin' | 'opaque';
}

/** Milliseconds of audio in one frame (`ptime:20` in MEDIA_START). */
export const PTIME_MS = 20;

const SLIN_RATES: Readonly<Record<string, number>> = {
  slin: 8000,
  slin12: 12000,
  slin16: 16000,
  slin24: 24000,
  slin32: 32000,
  slin44: 44100,
  slin48: 48000,
  slin96: 96000,
  slin192: 192000,
};

/** Codecs chan_websocket passes through without framing (MARK and FLUSH refused). */
const PASSTHROUGH = new Set(['opus', 'speex', 'g729', 'gsm', 'ilbc', 'g726', 'h264', 'vp8', 'vp9']);

/**
 * The framing of a format name, or undefined for a name this description does not know.
 *
 * @example
 * mediaFormat('slin16'); // { kind: 'framed', name: 'slin16', frameBytes: 640, sampleRate: 16000, encoding: 'slin' }
 * mediaFormat('opus'); // { kind: 'passthrough', name: 'opus' }
 */
export function mediaFormat(name: string): MediaFormat | undefined {
  if (name === 'ulaw' || name === 'alaw') {
    return { kind: 'framed', name, frameBytes: 160, sampleRate: 8000, encoding: name };
  }
  if (name === 'g722')
    return { kind: 'framed', name, frameBytes: 160, sampleRate: 16000, encoding: 'opaque' };
  const rate = SLIN_RATES[name];
  if (rate !== undefined) {
    return {
      kind: 'framed',
      name,
      frameBytes: (rate / 1000) * PTIME_MS * 2,
      sampleRate: rate,
      encoding: 'slin',
    };
  }
  if (PASSTHROUGH.has(name)) return { kind: 'passthrough', name };
  return undefined;
}

/** `optimal_frame_size` of MEDIA_START: 0 for passthrough codecs. */
export function optimalFrameSize(format: MediaFormat): number {
  return format.kind === 'framed' ? format.frameBytes : 0;
}

/** One frame of silence in the format (µ-law 0xff, A-law 0xd5, linear 0). */
export function silentFrame(format: FramedMediaFormat): Uint8Array {
  const fill = format.encoding === 'ulaw' ? 0xff : format.encoding === 'alaw' ? 0xd5 : 0;
  return new Uint8Array(format.frameBytes).fill(fill);
}
