import { describe, expect, it } from 'vitest';
import { levelOf, lineBytes, lineSamples, toLineFrame } from './lineFrame.ts';

/** 20 ms of a sine of `hz` at `rate`, float samples. */
const sine = (hz: number, rate: number, amplitude = 0.5) =>
  Float32Array.from({ length: rate / 50 }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));

describe("the microphone's frames as the call's line carries them", () => {
  it('makes 320 samples at 16 kHz of a 48 kHz or 44.1 kHz frame, keeping the voice', () => {
    for (const rate of [48_000, 44_100]) {
      const frame = toLineFrame(sine(400, rate), rate);
      expect(frame).toHaveLength(320);
      const expected = Int16Array.from({ length: 320 }, (_, i) =>
        Math.round(0.5 * 32767 * Math.sin((2 * Math.PI * 400 * i) / 16_000)),
      );
      for (let i = 0; i < 320; i++) expect(Math.abs(frame[i]! - expected[i]!)).toBeLessThan(900);
    }
  });

  it('does not fold what is above 8 kHz back into the voice band', () => {
    const frame = toLineFrame(sine(15_000, 48_000), 48_000);
    expect(levelOf(Float32Array.from(frame, (s) => s / 32768))).toBeLessThan(0.05);
  });

  it('clips what is beyond full scale, and round-trips its bytes little-endian', () => {
    const frame = toLineFrame(new Float32Array(960).fill(1.5), 48_000);
    expect(frame[0]).toBe(32767);
    const bytes = lineBytes(Int16Array.from([1, -2, 32767]));
    expect([...bytes]).toEqual([1, 0, 0xfe, 0xff, 0xff, 0x7f]);
    expect([...lineSamples(bytes.buffer as ArrayBuffer)]).toEqual([1, -2, 32767]);
  });
});
