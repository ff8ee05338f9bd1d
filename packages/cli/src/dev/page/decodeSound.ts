/**
 * The raw formats a server's sounds folder holds, decoded to samples for Web Audio (WAV is
 * decoded by the browser itself): 16-bit signed little-endian linear at 16 kHz (`sln16`) or
 * 8 kHz (`sln`, `slin`), and G.711 at 8 kHz, µ-law (`ulaw`, `ul`) and A-law (`alaw`, `al`).
 */
export interface DecodedSound {
  readonly sampleRate: number;
  readonly samples: Float32Array<ArrayBuffer>;
}

/** G.711 µ-law byte to a linear sample (-32124..32124), as ITU-T G.711 defines it. */
function ulawSample(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << exponent) - 0x84;
  return u & 0x80 ? -magnitude : magnitude;
}

/** G.711 A-law byte to a linear sample (-32256..32256). */
function alawSample(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 0x07;
  const mantissa = a & 0x0f;
  const magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

function companded(bytes: Uint8Array, sample: (byte: number) => number): Float32Array<ArrayBuffer> {
  const table = new Float32Array(256);
  for (let b = 0; b < 256; b++) table[b] = sample(b) / 32768;
  const out = new Float32Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = table[bytes[i]!]!;
  return out;
}

function linear16(bytes: Uint8Array): Float32Array<ArrayBuffer> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

/**
 * The samples of a raw sound file in `format` (its extension), or undefined for a format this
 * does not decode (WAV: the browser's decodeAudioData does).
 *
 * @example decodeRawSound(new Uint8Array(await response.arrayBuffer()), 'ulaw') // { sampleRate: 8000, samples }
 */
export function decodeRawSound(bytes: Uint8Array, format: string): DecodedSound | undefined {
  switch (format) {
    case 'ulaw':
    case 'ul':
      return { sampleRate: 8000, samples: companded(bytes, ulawSample) };
    case 'alaw':
    case 'al':
      return { sampleRate: 8000, samples: companded(bytes, alawSample) };
    case 'sln':
    case 'slin':
      return { sampleRate: 8000, samples: linear16(bytes) };
    case 'sln16':
      return { sampleRate: 16000, samples: linear16(bytes) };
    default:
      return undefined;
  }
}
