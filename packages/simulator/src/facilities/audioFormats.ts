/**
 * The audio file formats the simulator can write for recordings, each producing silence of a
 * given length in the real container and encoding, so the bytes served by
 * `/recordings/stored/{name}/file` open in any audio tool.
 */
export interface AudioFormat {
  /** The `format` of a recording, also the file extension: `wav`, `gsm`, `ulaw`. */
  readonly name: string;
  /** Bytes of `durationMs` of silence. */
  encode(durationMs: number): Uint8Array;
  /** The length of a file of `byteLength` bytes, in milliseconds (to index files found on disk). */
  durationOf(byteLength: number): number;
}

const wavHeaderLength = 44;

/** RIFF/WAVE, PCM 16-bit mono: the `wav` (8 kHz) and `wav16` (16 kHz) formats. */
function wavFormat(name: string, sampleRate: number): AudioFormat {
  const bytesPerMs = (sampleRate * 2) / 1000;
  return {
    name,
    encode(durationMs) {
      const dataLength = Math.round((durationMs * sampleRate) / 1000) * 2;
      const bytes = new Uint8Array(wavHeaderLength + dataLength);
      const view = new DataView(bytes.buffer);
      const ascii = (offset: number, text: string) => {
        for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i);
      };
      ascii(0, 'RIFF');
      view.setUint32(4, 36 + dataLength, true);
      ascii(8, 'WAVE');
      ascii(12, 'fmt ');
      view.setUint32(16, 16, true); // fmt chunk length
      view.setUint16(20, 1, true); // PCM
      view.setUint16(22, 1, true); // mono
      view.setUint32(24, sampleRate, true);
      view.setUint32(28, sampleRate * 2, true); // byte rate
      view.setUint16(32, 2, true); // block align
      view.setUint16(34, 16, true); // bits per sample
      ascii(36, 'data');
      view.setUint32(40, dataLength, true);
      return bytes; // the samples are already 0: silence
    },
    durationOf: (byteLength) => Math.max(0, byteLength - wavHeaderLength) / bytesPerMs,
  };
}

/** Headerless sample streams: one silence byte pattern repeated. */
function rawFormat(name: string, bytesPerMs: number, silence: number): AudioFormat {
  return {
    name,
    encode: (durationMs) => new Uint8Array(Math.round(durationMs * bytesPerMs)).fill(silence),
    durationOf: (byteLength) => byteLength / bytesPerMs,
  };
}

/** One 20 ms GSM 06.10 frame of silence, as the server's GSM file format writes it. */
const gsmSilenceFrame = [
  0xd8, 0x20, 0xa2, 0xe1, 0x5a, 0x50, 0x00, 0x49, 0x24, 0x92, 0x49, 0x24, 0x50, 0x00, 0x49, 0x24, 0x92, 0x49,
  0x24, 0x50, 0x00, 0x49, 0x24, 0x92, 0x49, 0x24, 0x50, 0x00, 0x49, 0x24, 0x92, 0x49, 0x24,
];

const gsmFormat: AudioFormat = {
  name: 'gsm',
  encode(durationMs) {
    const frames = Math.round(durationMs / 20);
    const bytes = new Uint8Array(frames * gsmSilenceFrame.length);
    for (let f = 0; f < frames; f++) bytes.set(gsmSilenceFrame, f * gsmSilenceFrame.length);
    return bytes;
  },
  durationOf: (byteLength) => Math.floor(byteLength / gsmSilenceFrame.length) * 20,
};

const ulawSilence = 0xff;
const alawSilence = 0xd5;

/** Every format the simulator records in, by name (the server's file extensions). */
export const audioFormats: ReadonlyMap<string, AudioFormat> = new Map(
  [
    wavFormat('wav', 8000),
    wavFormat('wav16', 16000),
    gsmFormat,
    rawFormat('ulaw', 8, ulawSilence),
    rawFormat('ul', 8, ulawSilence),
    rawFormat('mu', 8, ulawSilence),
    rawFormat('pcm', 8, ulawSilence),
    rawFormat('alaw', 8, alawSilence),
    rawFormat('al', 8, alawSilence),
    rawFormat('alw', 8, alawSilence),
    rawFormat('sln', 16, 0),
    rawFormat('raw', 16, 0),
    rawFormat('sln16', 32, 0),
  ].map((f) => [f.name, f]),
);
