import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoundFolder } from './SoundFolder.ts';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { readFeed } from './test-support/readFeed.ts';
import { STEP_FLOW } from './test-support/stepFlow.ts';
import { ulawSilence, wavTone } from './test-support/soundFiles.ts';

/** The prompts of `ringflow dev --sounds DIR`: served from the folder only, told on the feed as they play. */
describe('ringflow dev --sounds', () => {
  let dir: string;
  let sounds: string;
  let dev: DevConsole;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-sounds-'));
    sounds = join(dir, 'sounds');
    await mkdir(join(sounds, 'en', 'digits'), { recursive: true });
    await mkdir(join(sounds, 'fr'), { recursive: true });
    await writeFile(join(sounds, 'en', 'hello-world.wav'), wavTone(1500));
    // One file of a sound per format, all as long (1.5 s: 75 GSM frames of 20 ms).
    await writeFile(join(sounds, 'en', 'hello-world.gsm'), Buffer.alloc(75 * 33));
    await writeFile(join(sounds, 'fr', 'hello-world.ulaw'), ulawSilence(1500));
    await writeFile(join(sounds, 'en', 'digits', '1.sln16'), Buffer.alloc(3200));
    await writeFile(join(sounds, 'beep.ulaw'), ulawSilence(100));
    // Beside the folder, not in it: never served.
    await writeFile(join(dir, 'secret.wav'), wavTone(100));
    await writeFile(join(dir, 'steps.yaml'), STEP_FLOW);
    dev = await startDevConsole({ files: [join(dir, 'steps.yaml')], port: 0, sounds });
  });
  afterAll(async () => {
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds a sound as a server does: the language, its base, en, the root; the best playable format', () => {
    const folder = new SoundFolder(sounds);
    expect(folder.file('hello-world', 'en')).toEqual({
      path: join(sounds, 'en', 'hello-world.wav'),
      format: 'wav',
    });
    expect(folder.file('hello-world', 'fr_CA')?.format).toBe('ulaw');
    expect(folder.file('hello-world', 'de')?.format).toBe('wav');
    expect(folder.file('digits/1', 'en')?.format).toBe('sln16');
    expect(folder.file('beep', 'en')?.path).toBe(join(sounds, 'beep.ulaw'));
    expect(folder.file('nothing', 'en')).toBeUndefined();
  });

  it('serves a sound with its format', async () => {
    const wav = await fetch(`${dev.url}api/sound?name=hello-world&lang=en_US`);
    expect(wav.status).toBe(200);
    expect(wav.headers.get('x-sound-format')).toBe('wav');
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(
      Buffer.from(await wav.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF');
    const digit = await fetch(`${dev.url}api/sound?name=digits/1&lang=en`);
    expect(digit.headers.get('x-sound-format')).toBe('sln16');
    expect((await digit.arrayBuffer()).byteLength).toBe(3200);
  });

  it('never serves a file outside the folder', async () => {
    for (const query of [
      'name=../secret',
      'name=..%2Fsecret',
      'name=%2e%2e/secret',
      'name=en/../../secret',
      `name=${encodeURIComponent(join(dir, 'secret'))}`,
      'name=secret&lang=..',
      'name=secret&lang=../..',
      'name=hello-world&lang=en/../..',
    ]) {
      const response = await fetch(`${dev.url}api/sound?${query}`);
      expect(response.status, query).toBe(404);
      expect(((await response.json()) as { error: string }).error, query).toMatch(/no playable file/);
    }
    // A path under the route is not a way in either.
    expect((await fetch(`${dev.url}api/sound/../../secret.wav`)).status).toBe(404);
    expect((await fetch(`${dev.url}api/sounds%2F..%2Fsecret.wav`)).status).toBe(404);
  });

  it('tells the feed which sound each prompt plays, and it lasts as long as its file', async () => {
    const reply = await fetch(`${dev.url}api/call`, {
      method: 'POST',
      body: JSON.stringify({ flow: 'steps' }),
    });
    const { id } = (await reply.json()) as { id: string };
    const started = await readFeed(dev.url, (m) =>
      m.some((x) => x.type === 'sound' && x.call === id && x.playing === false),
    );
    const sounds = started.filter((x) => x.type === 'sound' && x.call === id);
    expect(sounds[0]).toEqual({
      type: 'sound',
      call: id,
      channel: id,
      id: expect.any(String),
      media: 'sound:hello-world',
      files: ['hello-world'],
      language: 'en',
      playing: true,
    });
    // The file's 1.5 s, in simulated time (the simulator's catalogue read the folder).
    const times = started
      .filter((x) => x.type === 'timeline' && /Playback(Started|Finished)/.test(JSON.stringify(x)))
      .map((x) => (x.entry as { at: number }).at);
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1500);
    await fetch(`${dev.url}api/hangup`, { method: 'POST', body: JSON.stringify({ call: id }) });
  });

  it('refuses a sounds folder that is not there', async () => {
    expect(() => SoundFolder.find(join(dir, 'none'))).toThrow(/--sounds .*none: no such folder/);
    expect(SoundFolder.find(undefined, [join(dir, 'none'), sounds])?.dir).toBe(sounds);
    expect(SoundFolder.find(undefined, [join(dir, 'none')])).toBeUndefined();
  });
});
