import { describe, expect, it } from 'vitest';
import { audioFormats } from './audioFormats.ts';

describe('audioFormats', () => {
  it('reads back the length of every file it makes', () => {
    for (const format of audioFormats.values()) {
      for (const durationMs of [0, 20, 1000, 2880, 61_000]) {
        expect(format.durationOf(format.encode(durationMs).length), `${format.name} ${durationMs}`).toBe(
          durationMs,
        );
      }
    }
  });

  it('writes a consistent RIFF header whatever the length', () => {
    const wav = audioFormats.get('wav');
    const bytes = wav?.encode(1234) ?? new Uint8Array();
    const view = new DataView(bytes.buffer);
    expect(view.getUint32(4, true)).toBe(bytes.length - 8);
    expect(view.getUint32(40, true)).toBe(bytes.length - 44);
    expect((bytes.length - 44) % 2).toBe(0);
  });
});
