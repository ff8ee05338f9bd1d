import { type FramedMediaFormat, linearToAlaw, linearToUlaw } from '@ringflow/client';

/**
 * Audio the simulator sends for sound that reaches a media channel (a playback, a caller who
 * talks): a 440 Hz tone in the channel's format, frame after frame with a continuous phase. The
 * simulator models *that* sound flows, not what is said; a steady tone is easy to recognise.
 */
export class ToneFrames {
  private sample = 0;

  constructor(private readonly format: FramedMediaFormat) {}

  next(): Uint8Array {
    const { frameBytes, sampleRate, encoding } = this.format;
    const frame = new Uint8Array(frameBytes);
    const samples = encoding === 'slin' ? frameBytes / 2 : frameBytes;
    const view = new DataView(frame.buffer);
    for (let i = 0; i < samples; i++) {
      const value = Math.round(8000 * Math.sin((2 * Math.PI * 440 * this.sample++) / sampleRate));
      if (encoding === 'slin') view.setInt16(i * 2, value, true);
      else if (encoding === 'ulaw') frame[i] = linearToUlaw(value);
      else if (encoding === 'alaw') frame[i] = linearToAlaw(value);
      else frame[i] = (value >> 8) & 0xff;
    }
    return frame;
  }
}
