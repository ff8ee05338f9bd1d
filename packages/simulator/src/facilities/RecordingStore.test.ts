import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SimError } from '../SimError.ts';
import { expectSimError } from './expectSimError.ts';
import { RecordingStore } from './RecordingStore.ts';
import { isSafeRecordingName } from './recordingName.ts';

/** The first bytes of the traced `GET /recordings/stored/t1/file` (46124 bytes, 2.88 s). */
const tracedT1Head =
  '5249464624b4000057415645666d74201000000001000100401f0000803e0000020010006461746100b4000000000000';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

const temporaryDirectories: string[] = [];
function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'ringflow-recordings-'));
  temporaryDirectories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** Every path under `directory`, relative, directories marked with a trailing slash. */
function tree(directory: string, prefix = ''): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() && !d.isSymbolicLink()
      ? [`${prefix}${d.name}/`, ...tree(join(directory, d.name), `${prefix}${d.name}/`)]
      : [`${prefix}${d.name}`],
  );
}

describe('RecordingStore', () => {
  it('serves a WAV file whose header matches the real server byte for byte', () => {
    const store = new RecordingStore();
    store.write('t1', 'wav', 2880);
    const file = store.getFile('t1');
    expect(file.contentType).toBe('audio/wav');
    expect(file.data.length).toBe(46124);
    expect(hex(file.data.subarray(0, tracedT1Head.length / 2))).toBe(tracedT1Head);
    expect(file.data.subarray(44).every((b) => b === 0)).toBe(true);
  });

  it('lists, reads, copies into a sub-directory and deletes (traced sequence)', () => {
    const store = new RecordingStore();
    store.write('t1', 'wav', 2880);
    expect(store.list()).toEqual([{ name: 't1', format: 'wav' }]);
    expect(store.get('t1')).toEqual({ name: 't1', format: 'wav' });
    expect(store.copy('t1', 'sub/t2')).toEqual({ name: 'sub/t2', format: 'wav' });
    expectSimError(
      () => store.copy('t1', 'sub/t2'),
      409,
      'A recording with the same name already exists on the system',
    );
    expectSimError(() => store.copy('no-such', 'x'), 404, 'Recording not found');
    expectSimError(() => store.copy('t1', undefined), 400, 'Invalid destination recording name');
    expect(store.get('sub/t2')).toEqual({ name: 'sub/t2', format: 'wav' });
    expectSimError(() => store.get('no-such'), 404, 'Recording not found');
    expectSimError(() => store.getFile('no-such'), 404, 'Recording not found');
    store.write('t3', 'wav', 0);
    store.write('t5', 'wav', 0);
    expect(store.list().map((r) => r.name)).toEqual(['sub/t2', 't1', 't3', 't5']);
    store.delete('sub/t2');
    store.delete('t3');
    expectSimError(() => store.delete('t3'), 404, 'Recording not found');
    expect(store.durationOf('t1')).toBe(2880);
    expect(store.getFile('t1').data.length).toBe(46124);
  });

  it('applies the record-time checks in the server order', () => {
    const store = new RecordingStore();
    store.write('t1', 'wav', 1000);
    expectSimError(
      () => store.checkNewRecording('tx', 'nosuchformat'),
      422,
      'specified format is unknown on this system',
    );
    expectSimError(() => store.checkNewRecording(undefined, 'wav'), 500, 'Error parsing request');
    expectSimError(() => store.checkNewRecording('../escape', 'wav'), 500, 'Error parsing request');
    expectSimError(
      () => store.checkNewRecording('t1', 'wav', 'fail'),
      409,
      "Recording 't1' already exists and can not be overwritten",
    );
    store.checkNewRecording('t1', 'wav', 'overwrite');
    store.checkNewRecording('t1', 'wav', 'append');
    store.checkNewRecording('new', 'gsm', 'fail');
  });

  it('overwrites, appends or refuses when a recording finishes', () => {
    const store = new RecordingStore();
    store.write('m', 'wav', 1000);
    store.write('m', 'wav', 500, { append: true });
    expect(store.durationOf('m')).toBe(1500);
    store.write('m', 'wav', 200);
    expect(store.durationOf('m')).toBe(200);
    store.write('m', 'wav', 300, { ifExists: 'append' });
    expect(store.durationOf('m')).toBe(500);
    expectSimError(
      () => store.write('m', 'wav', 1, { ifExists: 'fail' }),
      409,
      "Recording 'm' already exists and can not be overwritten",
    );
    store.write('m', 'gsm', 400, { append: true });
    expect(store.get('m')).toEqual({ name: 'm', format: 'gsm' });
    expect(store.durationOf('m')).toBe(400);
    expect(() => store.write('bad', 'wav', -1)).toThrow(/durationMs/);
    expect(store.exists('bad')).toBe(false);
  });

  it('makes files of the right size in every format it records', () => {
    const store = new RecordingStore();
    const sizes: Record<string, number> = {
      wav: 44 + 16000,
      wav16: 44 + 32000,
      sln: 16000,
      raw: 16000,
      sln16: 32000,
      ulaw: 8000,
      alaw: 8000,
      gsm: 50 * 33,
    };
    for (const [format, size] of Object.entries(sizes)) {
      store.write(`one-second-${format}`, format, 1000);
      const file = store.getFile(`one-second-${format}`);
      expect(file.data.length, format).toBe(size);
      expect(file.contentType).toBe(`audio/${format}`);
    }
    expect(store.getFile('one-second-ulaw').data[0]).toBe(0xff);
    expect(store.getFile('one-second-alaw').data[0]).toBe(0xd5);
    expect(hex(store.getFile('one-second-gsm').data.subarray(0, 4))).toBe('d820a2e1');
    const wav16 = store.getFile('one-second-wav16').data;
    expect(new DataView(wav16.buffer, wav16.byteOffset).getUint32(24, true)).toBe(16000);
    expectSimError(() => store.write('x', 'mp3', 1000), 422, 'specified format is unknown on this system');
  });

  it('refuses hostile names everywhere with the operation’s own error', () => {
    const store = new RecordingStore();
    store.write('t1', 'wav', 100);
    for (const name of [
      '../x',
      '/etc/passwd',
      'a/../../x',
      'a\\..\\x',
      'nul\u0000byte',
      '%2e%2e/x',
      '..%2fx',
      'a//b',
      'a/',
      './x',
      '',
    ]) {
      expectSimError(() => store.checkNewRecording(name, 'wav'), 500, 'Error parsing request');
      expectSimError(() => store.write(name, 'wav', 100), 500, 'Error parsing request');
      expectSimError(() => store.copy('t1', name), 400, 'Invalid destination recording name');
      expectSimError(() => store.get(name), 404, 'Recording not found');
      expectSimError(() => store.getFile(name), 404, 'Recording not found');
      expectSimError(() => store.delete(name), 404, 'Recording not found');
    }
    expect(store.list()).toEqual([{ name: 't1', format: 'wav' }]);
  });

  describe('on disk', () => {
    it('writes real files under the directory and lists them again after a restart', () => {
      const directory = join(temporaryDirectory(), 'recordings');
      const store = new RecordingStore({ directory });
      store.write('t1', 'wav', 2880);
      store.copy('t1', 'sub/t2');
      store.write('voicemail/1000/msg0001', 'gsm', 2000);
      expect(tree(directory).sort()).toEqual([
        'sub/',
        'sub/t2.wav',
        't1.wav',
        'voicemail/',
        'voicemail/1000/',
        'voicemail/1000/msg0001.gsm',
      ]);
      expect(hex(readFileSync(join(directory, 't1.wav')).subarray(0, 48))).toBe(tracedT1Head);
      writeFileSync(join(directory, 'notes.txt'), 'not a recording');
      const reopened = new RecordingStore({ directory });
      expect(reopened.list()).toEqual([
        { name: 'sub/t2', format: 'wav' },
        { name: 't1', format: 'wav' },
        { name: 'voicemail/1000/msg0001', format: 'gsm' },
      ]);
      expect(reopened.durationOf('t1')).toBe(2880);
      expect(reopened.durationOf('voicemail/1000/msg0001')).toBe(2000);
      reopened.delete('t1');
      expect(tree(directory)).not.toContain('t1.wav');
    });

    it('removes the old file when a recording changes format', () => {
      const directory = temporaryDirectory();
      const store = new RecordingStore({ directory });
      store.write('m', 'wav', 100);
      store.write('m', 'ulaw', 100);
      expect(tree(directory)).toEqual(['m.ulaw']);
    });

    it('treats a file removed behind its back as not found', () => {
      const directory = temporaryDirectory();
      const store = new RecordingStore({ directory });
      store.write('gone', 'wav', 100);
      store.write('also-gone', 'wav', 100);
      rmSync(join(directory, 'gone.wav'));
      rmSync(join(directory, 'also-gone.wav'));
      expectSimError(() => store.getFile('gone'), 404, 'Recording not found');
      expect(store.exists('gone')).toBe(false);
      store.delete('also-gone');
      expect(store.list()).toEqual([]);
    });

    it('never follows a symbolic link planted in the directory', () => {
      const base = temporaryDirectory();
      const directory = join(base, 'recordings');
      const outside = join(base, 'outside');
      mkdirSync(directory);
      mkdirSync(outside);
      symlinkSync(outside, join(directory, 'linked'));
      symlinkSync(join(outside, 'target.wav'), join(directory, 'planted.wav'));
      const store = new RecordingStore({ directory });
      expect(store.list()).toEqual([]);
      expect(() => store.write('linked/x', 'wav', 100)).toThrow(SimError);
      expect(() => store.write('planted', 'wav', 100)).toThrow();
      expect(readdirSync(outside)).toEqual([]);
      expect(lstatSync(join(directory, 'planted.wav')).isSymbolicLink()).toBe(true);
    });

    it('writes nothing outside its directory whatever the names (property)', () => {
      const base = temporaryDirectory();
      const directory = join(base, 'recordings');
      const store = new RecordingStore({ directory });
      store.write('seed', 'wav', 20);
      const piece = fc.constantFrom(
        '..',
        '.',
        '/',
        '\\',
        '%2e',
        '%2E%2e',
        '%2f',
        '%5c',
        '%25',
        '\u0000',
        '\n',
        'a',
        'b',
        ' ',
        '~',
        'tmp',
        'etc',
        '\uD800',
        'é',
      );
      const hostileName = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));
      fc.assert(
        fc.property(hostileName, fc.constantFrom('wav', 'gsm', 'ulaw'), (name, format) => {
          const attempts = [
            () => store.checkNewRecording(name, format, 'overwrite'),
            () => store.write(name, format, 20),
            () => store.copy('seed', name),
            () => store.getFile(name),
          ];
          for (const attempt of attempts) {
            try {
              attempt();
            } catch (error) {
              // Refusals are fine; anything but the server's own errors is a bug.
              expect(error).toBeInstanceOf(SimError);
            }
          }
          if (store.exists(name)) expect(isSafeRecordingName(name)).toBe(true);
          expect(readdirSync(base)).toEqual(['recordings']);
        }),
        { numRuns: 300 },
      );
      // Every file written is inside, and is a recording the store knows.
      const files = tree(directory).filter((p) => !p.endsWith('/'));
      const known = new Set(store.list().map((r) => `${r.name}.${r.format}`));
      for (const file of files) expect(known.has(file), file).toBe(true);
    });
  });
});

describe('isSafeRecordingName', () => {
  it('accepts plain and nested names', () => {
    for (const name of [
      't1',
      'sub/t2',
      'a/b/c',
      '..hidden',
      'name..',
      'with space',
      'dé',
      'x.wav',
      'a%20b',
    ]) {
      expect(isSafeRecordingName(name), name).toBe(true);
    }
  });

  it('refuses traversal in all its spellings', () => {
    for (const name of [
      undefined,
      '',
      '..',
      '.',
      '../x',
      'a/..',
      'a/../b',
      '/abs',
      'a\\b',
      'a\u0000',
      'a\u001f',
      '%2e%2e',
      '%2E%2E%2Fx',
      '..%2f',
      '%252e',
      'a/',
      '/',
      'a//b',
      '\uDC00',
      'x'.repeat(241),
      'a/'.repeat(600),
    ]) {
      expect(isSafeRecordingName(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('never lets a name resolve outside the directory (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 40 }), (name) => {
        if (!isSafeRecordingName(name)) return;
        const resolved = join('/recordings', name);
        expect(resolved.startsWith('/recordings/')).toBe(true);
        expect(resolved).not.toBe('/recordings/');
      }),
      { numRuns: 1000 },
    );
  });
});
