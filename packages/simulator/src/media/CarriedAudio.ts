import {
  decodeMediaAudio,
  encodeMediaAudio,
  type FramedMediaFormat,
  type MediaFormat,
  resampleSamples,
} from '@ringflow/client';

/** At most this many frames wait (a second): a listener that fell behind loses the oldest. */
const MAX_WAITING = 50;

/**
 * The audio one media channel plays into a bridge, as another media channel of that bridge
 * hears it: the actual frames, in the hearer's format (G.711 and slin converted, resampled),
 * queued until the hearer's next 20 ms tick. This is how a test carries real speech from one
 * socket (a caller's voice) to another (a bot); other sound stays a tone.
 */
export class CarriedAudio {
  private readonly frames: Uint8Array[] = [];

  constructor(private readonly format: FramedMediaFormat) {}

  get waiting(): number {
    return this.frames.length;
  }

  /** A frame another media channel played; formats that are not PCM or G.711 are not carried. */
  push(frame: Uint8Array, from: MediaFormat): void {
    const converted = this.convert(frame, from);
    if (!converted) return;
    this.frames.push(converted);
    if (this.frames.length > MAX_WAITING) this.frames.shift();
  }

  next(): Uint8Array | undefined {
    return this.frames.shift();
  }

  private convert(frame: Uint8Array, from: MediaFormat): Uint8Array | undefined {
    const to = this.format;
    if (from.kind !== 'framed' || from.encoding === 'opaque' || to.encoding === 'opaque') return undefined;
    if (from.name === to.name) return frame;
    const samples = resampleSamples(decodeMediaAudio(from, frame), from.sampleRate, to.sampleRate);
    const bytes = encodeMediaAudio(to, samples);
    if (bytes.length === to.frameBytes) return bytes;
    // Resampling can leave a sample short: the frame keeps its size.
    const whole = new Uint8Array(to.frameBytes).fill(
      to.encoding === 'ulaw' ? 0xff : to.encoding === 'alaw' ? 0xd5 : 0,
    );
    whole.set(bytes.subarray(0, to.frameBytes));
    return whole;
  }
}
