import { describe, expect, it } from 'vitest';
import { UtteranceSegmenter } from './UtteranceSegmenter.ts';
import { readWav, writeWav } from './wavFile.ts';

const tone = (rate: number, ms: number, amplitude = 4000) =>
  Int16Array.from({ length: (rate * ms) / 1000 }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * 300 * i) / rate)),
  );
const quiet = (rate: number, ms: number) => new Int16Array((rate * ms) / 1000);

describe('WAV files', () => {
  it('reads what it writes, and a piped WAV whose header sizes are unknown (espeak-ng --stdout)', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768]);
    expect(readWav(writeWav({ sampleRate: 22050, samples }))).toEqual({ sampleRate: 22050, samples });
    const piped = writeWav({ sampleRate: 22050, samples });
    new DataView(piped.buffer).setUint32(40, 0x7ffff000, true);
    expect(readWav(piped).samples).toEqual(samples);
  });

  it('says what is wrong with a file it cannot read', () => {
    expect(() => readWav(new TextEncoder().encode('hello, not audio'))).toThrow(/not a WAV file/);
    const eightBit = writeWav({ sampleRate: 8000, samples: new Int16Array(4) });
    new DataView(eightBit.buffer).setUint16(34, 8, true);
    expect(() => readWav(eightBit)).toThrow(/only 16-bit PCM/);
  });
});

describe('utterances by energy', () => {
  function segment(chunks: Int16Array[], chunkSamples = 37) {
    const log: string[] = [];
    let samples = 0;
    const segmenter = new UtteranceSegmenter(8000, {
      start: (preroll) => {
        samples = preroll.length;
        log.push('start');
      },
      audio: (s) => {
        samples += s.length;
      },
      end: () => log.push(`end ${Math.round((samples / 8000) * 1000)}ms`),
    });
    const all = Int16Array.from(chunks.flatMap((c) => [...c]));
    for (let at = 0; at < all.length; at += chunkSamples)
      segmenter.write(all.subarray(at, at + chunkSamples));
    segmenter.finish();
    return log;
  }

  it('two stretches of sound with a long pause are two utterances, with preroll and the silence that ended them', () => {
    expect(
      segment([quiet(8000, 500), tone(8000, 400), quiet(8000, 1000), tone(8000, 300), quiet(8000, 900)]),
    ).toEqual([
      'start',
      'end 1200ms', // 200 ms of preroll, 400 ms of sound, the 600 ms of silence that ended it
      'start',
      'end 1100ms',
    ]);
  });

  it('a short pause inside an utterance does not end it; the end of the stream does', () => {
    expect(segment([tone(8000, 300), quiet(8000, 300), tone(8000, 300)])).toEqual(['start', 'end 900ms']);
  });

  it('a click shorter than two frames is not speech', () => {
    expect(segment([quiet(8000, 200), tone(8000, 20), quiet(8000, 500)])).toEqual([]);
  });
});
