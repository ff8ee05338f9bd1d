/** A WAV file (16-bit mono PCM at 8 kHz) of `ms` of a 440 Hz tone. */
export function wavTone(ms: number): Buffer {
  const samples = Math.round((8000 * ms) / 1000);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), i * 2);
  return wavFile(data, 8000);
}

/** A G.711 µ-law file (8 kHz, a byte a sample) of `ms` of near silence. */
export function ulawSilence(ms: number): Buffer {
  return Buffer.alloc(Math.round((8000 * ms) / 1000), 0xff);
}

/**
 * A WAV file (16-bit mono PCM at 48 kHz) of a voice-like sound for a fake microphone: `talkMs` of
 * a tone warbling between 350 and 450 Hz (not a steady tone: noise suppression would take that
 * for noise), then `silenceMs` of silence. Chromium loops it.
 */
export function wavWarble(talkMs: number, silenceMs: number): Buffer {
  const rate = 48_000;
  const talk = Math.round((rate * talkMs) / 1000);
  const samples = talk + Math.round((rate * silenceMs) / 1000);
  const data = Buffer.alloc(samples * 2);
  let phase = 0;
  for (let i = 0; i < talk; i++) {
    const hz = 400 + 50 * Math.sin((2 * Math.PI * 3 * i) / rate);
    phase += (2 * Math.PI * hz) / rate;
    const fade = Math.min(1, i / 480, (talk - 1 - i) / 480);
    data.writeInt16LE(Math.round(12_000 * fade * Math.sin(phase)), i * 2);
  }
  return wavFile(data, rate);
}

/** A WAV file of 16-bit mono PCM samples (`data`) at `rate` Hz. */
function wavFile(data: Buffer, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
