import { describe, expect, it } from 'vitest';
import { decodeRawSound } from './decodeSound.ts';
import { toneOf } from './tones.ts';

const scaled = (samples: Float32Array) => [...samples].map((s) => Math.round(s * 32768) || 0);

describe('decodeRawSound', () => {
  it('decodes G.711 µ-law and A-law as ITU-T G.711 defines them', () => {
    const ulaw = decodeRawSound(new Uint8Array([0xff, 0x7f, 0x00, 0x80, 0xef]), 'ulaw')!;
    expect(ulaw.sampleRate).toBe(8000);
    // 0xef: the first step of segment 1, 132.
    expect(scaled(ulaw.samples)).toEqual([0, 0, -32124, 32124, 132]);
    const alaw = decodeRawSound(new Uint8Array([0xd5, 0x55, 0xaa, 0x2a]), 'alaw')!;
    expect(scaled(alaw.samples)).toEqual([8, -8, 32256, -32256]);
  });

  it('decodes 16-bit linear at 8 and 16 kHz; leaves the rest to the browser', () => {
    const bytes = new Uint8Array([0x00, 0x40, 0x00, 0xc0]);
    expect(decodeRawSound(bytes, 'sln')).toMatchObject({ sampleRate: 8000 });
    expect(scaled(decodeRawSound(bytes, 'sln16')!.samples)).toEqual([16384, -16384]);
    expect(decodeRawSound(bytes, 'sln16')?.sampleRate).toBe(16000);
    expect(decodeRawSound(bytes, 'wav')).toBeUndefined();
    expect(decodeRawSound(bytes, 'gsm')).toBeUndefined();
  });
});

describe('toneOf', () => {
  it('knows the call-progress tones by zone, and tones written as indications', () => {
    expect(toneOf('tone:ring')).toEqual({ frequencies: [440, 480], cadence: [2000, 4000] });
    expect(toneOf('tone:busy;tonezone=fr')).toEqual({ frequencies: [425], cadence: [500, 500] });
    expect(toneOf('tone:425/1500,0/3500')).toEqual({ frequencies: [425], cadence: [1500, 3500] });
    expect(toneOf('tone:350+440/1000')).toEqual({ frequencies: [350, 440] });
    expect(toneOf('tone:nothing')).toBeUndefined();
  });
});
