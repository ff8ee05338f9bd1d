/** A WAV file (16-bit mono PCM at 8 kHz) of `ms` of a 440 Hz tone. */
export function wavTone(ms: number): Buffer {
  const samples = Math.round((8000 * ms) / 1000);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A G.711 µ-law file (8 kHz, a byte a sample) of `ms` of near silence. */
export function ulawSilence(ms: number): Buffer {
  return Buffer.alloc(Math.round((8000 * ms) / 1000), 0xff);
}
