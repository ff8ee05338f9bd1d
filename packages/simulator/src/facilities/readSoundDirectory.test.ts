import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSoundDirectory, wavDurationMs } from './readSoundDirectory.ts';

/** A RIFF/WAVE file of `dataBytes` of 16-bit mono PCM at `rate` Hz (with a LIST chunk before data, as some tools write). */
function wav(dataBytes: number, rate = 8000): Buffer {
  const fmt = Buffer.alloc(8 + 16);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8); // PCM
  fmt.writeUInt16LE(1, 10); // mono
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE(rate * 2, 16); // byte rate
  fmt.writeUInt16LE(2, 20);
  fmt.writeUInt16LE(16, 22);
  const list = Buffer.alloc(8 + 5);
  list.write('LIST', 0, 'ascii');
  list.writeUInt32LE(5, 4);
  const data = Buffer.alloc(8 + dataBytes);
  data.write('data', 0, 'ascii');
  data.writeUInt32LE(dataBytes, 4);
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), fmt, list, Buffer.alloc(1), data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

describe('readSoundDirectory', () => {
  it('reads a sounds folder: languages from folders, durations from the files, unknown files skipped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-sounds-'));
    await mkdir(join(dir, 'en', 'acme'), { recursive: true });
    await mkdir(join(dir, 'fr', 'acme'), { recursive: true });
    await writeFile(join(dir, 'en', 'acme', 'welcome.wav'), wav(40_000)); // 2.5 s at 8 kHz 16-bit
    await writeFile(join(dir, 'fr', 'acme', 'welcome.gsm'), Buffer.alloc(33 * 150)); // 150 frames of 20 ms
    await writeFile(join(dir, 'beep.ulaw'), Buffer.alloc(4000)); // 0.5 s, no language folder
    await writeFile(join(dir, 'en', 'notes.txt'), 'not audio');
    const found = await readSoundDirectory(dir);
    expect(found.sounds).toEqual([
      {
        id: 'acme/welcome',
        durationMs: 2500,
        formats: [
          { language: 'en', format: 'wav' },
          { language: 'fr', format: 'gsm' },
        ],
      },
      { id: 'beep', durationMs: 500, formats: [{ language: 'en', format: 'ulaw' }] },
    ]);
    expect(found.skipped).toEqual([
      {
        file: join(dir, 'en', 'notes.txt'),
        reason:
          '.txt is not an audio format the reader knows (wav, gsm, ulaw, alaw, slin, sln16, g722, g729)',
      },
    ]);
  });

  it('reads WAV durations from the header, and refuses what is not a WAV file', () => {
    const file = wav(16_000, 16_000); // 0.5 s at 16 kHz 16-bit
    expect(wavDurationMs(file, file.length)).toBe(500);
    // A data chunk that claims more than the file holds counts what is there.
    const cut = file.subarray(0, file.length - 8000);
    expect(wavDurationMs(cut, cut.length)).toBe(250);
    expect(wavDurationMs(Buffer.from('not a wav file at all'), 21)).toBeUndefined();
  });
});
