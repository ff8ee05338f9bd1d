/**
 * How chan_websocket frames a format: the payload bytes of 20 ms (`optimal_frame_size` in
 * MEDIA_START) and the sample layout, or `passthrough` for codecs it does not split into frames
 * (observed: opus reports `optimal_frame_size:0`).
 */
export type MediaFormat =
  | {
      readonly kind: 'framed';
      readonly name: string;
      /** Bytes of one 20 ms frame: ulaw 160, slin16 640 (observed). */
      readonly frameBytes: number;
      readonly sampleRate: number;
      /** How samples are stored: one G.711 byte, or signed 16-bit little-endian. */
      readonly encoding: 'ulaw' | 'alaw' | 'slin' | 'opaque';
    }
  | { readonly kind: 'passthrough'; readonly name: string };

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

/** The framing of a format name, or undefined when the simulator does not know the name. */
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
