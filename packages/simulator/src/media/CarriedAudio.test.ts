import { decodeMediaAudio, encodeMediaAudio, type FramedMediaFormat, mediaFormat } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { CarriedAudio } from './CarriedAudio.ts';

const ulaw = mediaFormat('ulaw') as FramedMediaFormat;
const slin16 = mediaFormat('slin16') as FramedMediaFormat;

/** A 20 ms frame of a 500 Hz sine at `rate`. */
const sine = (rate: number) =>
  Int16Array.from({ length: rate / 50 }, (_, i) =>
    Math.round(8000 * Math.sin((2 * Math.PI * 500 * i) / rate)),
  );

describe('audio carried from one media socket to another', () => {
  it('passes a frame of the same format as it is, in order', () => {
    const carried = new CarriedAudio(ulaw);
    const a = new Uint8Array(160).fill(1);
    const b = new Uint8Array(160).fill(2);
    carried.push(a, ulaw);
    carried.push(b, ulaw);
    expect(carried.next()).toBe(a);
    expect(carried.next()).toBe(b);
    expect(carried.next()).toBeUndefined();
  });

  it('converts slin16 to ulaw (and back) keeping the frame size and the sound', () => {
    const toUlaw = new CarriedAudio(ulaw);
    toUlaw.push(encodeMediaAudio(slin16, sine(16_000)), slin16);
    const frame = toUlaw.next()!;
    expect(frame).toHaveLength(160);
    const heard = decodeMediaAudio(ulaw, frame);
    const expected = sine(8000);
    for (let i = 0; i < 150; i++) expect(Math.abs(heard[i]! - expected[i]!)).toBeLessThan(1200);

    const toSlin = new CarriedAudio(slin16);
    toSlin.push(encodeMediaAudio(ulaw, sine(8000)), ulaw);
    expect(toSlin.next()).toHaveLength(640);
  });

  it('does not carry codecs it cannot decode, and drops the oldest when a listener falls a second behind', () => {
    const carried = new CarriedAudio(ulaw);
    carried.push(new Uint8Array(40), { kind: 'passthrough', name: 'opus' });
    expect(carried.waiting).toBe(0);
    for (let i = 0; i < 60; i++) carried.push(new Uint8Array(160).fill(i), ulaw);
    expect(carried.waiting).toBe(50);
    expect(carried.next()![0]).toBe(10);
  });
});
