/**
 * G.711 µ-law and A-law, one 16-bit linear sample to one byte and back (ITU-T G.711, the
 * segment tables computed rather than listed).
 */

const ULAW_BIAS = 0x84;
const ULAW_CLIP = 32635;

/** µ-law byte of one 16-bit sample. */
export function linearToUlaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  const magnitude = Math.min(Math.abs(Math.trunc(sample)), ULAW_CLIP) + ULAW_BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** 16-bit sample of one µ-law byte. */
export function ulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + ULAW_BIAS) << exponent) - ULAW_BIAS;
  return u & 0x80 ? -magnitude : magnitude;
}

/** A-law byte of one 16-bit sample. */
export function linearToAlaw(sample: number): number {
  let pcm = Math.trunc(sample) >> 3; // 13-bit
  let mask: number;
  if (pcm >= 0) {
    mask = 0xd5;
  } else {
    mask = 0x55;
    pcm = -pcm - 1;
  }
  if (pcm > 0xfff) pcm = 0xfff;
  let segment = 0;
  while (segment < 7 && pcm > (0x20 << segment) - 1) segment++;
  const value = segment === 0 ? pcm >> 1 : (segment << 4) | ((pcm >> segment) & 0x0f);
  return (value ^ mask) & 0xff;
}

/** 16-bit sample of one A-law byte. */
export function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  const segment = (a & 0x70) >> 4;
  let magnitude = (a & 0x0f) << 4;
  magnitude = segment === 0 ? magnitude + 8 : (magnitude + 0x108) << (segment - 1);
  return a & 0x80 ? magnitude : -magnitude;
}
