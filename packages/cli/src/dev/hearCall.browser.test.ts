import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { fakeMediaFlags, HAS_CHROMIUM, launchChromium } from './test-support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { ulawSilence, wavTone, wavWarble } from './test-support/soundFiles.ts';
import { STEP_FLOW } from './test-support/stepFlow.ts';

/** A flow that rings the caller back until a key: the ringback is a tone the page makes. */
const RINGING_FLOW = `name: ringing
start: waiting
states:
  waiting:
    steps:
      - ring
      - gather: { maxDigits: 1, firstDigitTimeout: 60s }
      - play: { media: "sound:vm-goodbye" }
    after:
      5m: done
  done:
    final: true
`;

/**
 * A flow that holds the caller with music, then (key) puts them in a room whose bridge plays a
 * prompt and then music to everyone in it.
 */
const ROOM_FLOW = `name: room
start: holding
states:
  holding:
    steps:
      - answer
      - startMoh: { class: jazz }
      - gather: { maxDigits: 1, firstDigitTimeout: 60s }
      - stopMoh
      - conference: { name: lobby }
      - bridgePlay: { media: "sound:hello-world" }
      - bridgeMoh: { class: default }
      - gather: { maxDigits: 1, firstDigitTimeout: 60s }
    after:
      5m: done
  done:
    final: true
`;

/**
 * Records what reaches the page's Web Audio graph, run in the page before its script: each
 * oscillator started (its type and frequency) in window.__started, each buffer of sound started
 * (its length in ms) in window.__buffers.
 */
const RECORD_OSCILLATORS = `
  window.__started = [];
  window.__buffers = [];
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__started.push({ type: this.type, frequency: this.frequency.value });
    return start.apply(this, args);
  };
  const play = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (...args) {
    window.__buffers.push(Math.round((this.buffer?.duration ?? 0) * 1000));
    return play.apply(this, args);
  };
`;

/**
 * Hear the call: the prompts the flow plays are fetched from the sounds folder and scheduled on
 * the page's audio graph (WAV decoded by the browser, µ-law by the page), a prompt without a file
 * is said so, and the microphone's level drives talk detection. No audio device is needed:
 * Chromium plays to a null sink and its fake microphone beeps.
 */
describe.skipIf(!HAS_CHROMIUM)('ringflow dev: hear the call in the page', () => {
  let dir: string;
  let dev: DevConsole;
  let browser: Browser;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-hear-'));
    await mkdir(join(dir, 'sounds', 'en'), { recursive: true });
    await writeFile(join(dir, 'sounds', 'en', 'hello-world.wav'), wavTone(1500));
    await writeFile(join(dir, 'sounds', 'en', 'vm-goodbye.ulaw'), ulawSilence(800));
    await writeFile(join(dir, 'steps.yaml'), STEP_FLOW);
    await writeFile(join(dir, 'ringing.yaml'), RINGING_FLOW);
    await writeFile(join(dir, 'room.yaml'), ROOM_FLOW);
    dev = await startDevConsole({
      files: [join(dir, 'steps.yaml'), join(dir, 'ringing.yaml'), join(dir, 'room.yaml')],
      port: 0,
      sounds: join(dir, 'sounds'),
    });
    // The fake microphone talks in stretches of 1.5 s. Chromium's own fake sound is a 20 ms beep
    // every 500 ms (media/audio/fake_audio_input_stream.cc), and talk detection needs 100 ms of
    // level (two readings 50 ms apart): a beep passed only when two timer ticks bunched up, so
    // the test passed by luck, and failed in a fresh-clone CI run.
    const voice = join(dir, 'voice.wav');
    await writeFile(voice, wavWarble(1500, 500));
    browser = await launchChromium(fakeMediaFlags(voice));
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('plays the prompts of the selected call from the sounds folder', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(10_000);
    await page.addInitScript(RECORD_OSCILLATORS);
    await page.goto(dev.url);
    const hello = page.waitForResponse((r) => r.url().includes('api/sound?name=hello-world'));
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    expect((await hello).status()).toBe(200);
    // Fetched, decoded by the browser and scheduled on the audio graph.
    await page
      .locator('#now-playing li[data-file="hello-world"][data-format="wav"][data-state="playing"]')
      .waitFor();
    // Key 1: the next prompt, a µ-law file decoded by the page.
    await page.locator('#pad button[data-key="1"]').click();
    await page
      .locator('#now-playing li[data-file="vm-goodbye"][data-format="ulaw"][data-state="playing"]')
      .waitFor();
    // Both files reached the audio graph as buffers of their length (1.5 s of WAV, 0.8 s of µ-law).
    expect(await page.evaluate('window.__buffers')).toEqual([1500, 800]);
    // The first prompt was stopped by the server (the key cut it): it is no longer played.
    await expect.poll(() => page.locator('#now-playing li[data-file="hello-world"]').count()).toBe(0);
    // Sound off: nothing plays.
    await page.locator('#sound-on').uncheck();
    await expect.poll(() => page.locator('#now-playing li').count()).toBe(0);
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await page.close();
  }, 60_000);

  it('makes the ringback a flow asks for, until other media starts', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(10_000);
    await page.goto(dev.url);
    await page.locator('#flow').selectOption('ringing');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page
      .locator('#now-playing li[data-file="tone:ring"][data-format="tone"][data-state="playing"]')
      .waitFor();
    await page.locator('#pad button[data-key="5"]').click();
    await page.locator('#now-playing li[data-file="vm-goodbye"][data-state="playing"]').waitFor();
    expect(await page.locator('#now-playing li[data-file="tone:ring"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await page.close();
  }, 60_000);

  it('plays the music on hold, and what the bridge the caller is in plays', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(10_000);
    await page.addInitScript(RECORD_OSCILLATORS);
    await page.goto(dev.url);
    await page.locator('#flow').selectOption('room');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    // The caller's own music on hold: synthesised by the page (the server's music is not its own).
    const music = (mohClass: string) =>
      page.locator(`#now-playing li[data-file="moh:${mohClass}"][data-format="music"][data-state="playing"]`);
    await music('jazz').waitFor();
    expect(await page.evaluate('window.__started.map((s) => s.type)')).toContain('triangle');
    // In the room: the bridge's prompt reaches the caller, fetched and scheduled; then its music.
    await page.locator('#pad button[data-key="1"]').click();
    await expect.poll(() => music('jazz').count()).toBe(0);
    await page
      .locator('#now-playing li[data-file="hello-world"][data-format="wav"][data-state="playing"]')
      .waitFor();
    expect(await page.evaluate('window.__buffers')).toEqual([1500]);
    await music('default').waitFor();
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await expect.poll(() => page.locator('#now-playing li').count()).toBe(0);
    await page.close();
  }, 60_000);

  it('synthesises the DTMF pair of each key pressed', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(10_000);
    await page.addInitScript(RECORD_OSCILLATORS);
    await page.goto(dev.url);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.locator('svg .state.active', { hasText: 'greet' }).waitFor();
    const frequencies = () => page.evaluate('window.__started.map((s) => s.frequency)') as Promise<number[]>;
    const before = (await frequencies()).length;
    // Key 5 (770 and 1336 Hz) from the pad, # (941 and 1477 Hz) from the keyboard.
    await page.locator('#pad button[data-key="5"]').click();
    await expect
      .poll(async () => (await frequencies()).slice(before))
      .toEqual(expect.arrayContaining([770, 1336]));
    await page.keyboard.press('#');
    await expect
      .poll(async () => (await frequencies()).slice(before))
      .toEqual(expect.arrayContaining([770, 1336, 941, 1477]));
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await page.close();
  }, 60_000);

  it('says a prompt has no sound file', async () => {
    await rm(join(dir, 'sounds', 'en', 'hello-world.wav'));
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(10_000);
    await page.goto(dev.url);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page
      .locator('#now-playing li[data-file="hello-world"][data-state="missing"]', { hasText: 'no sound file' })
      .waitFor();
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await page.close();
  }, 60_000);

  it('does not let the microphone start the sounds while the time is paused', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 720 },
      permissions: ['microphone'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // The page's audio context and who starts it, and when the microphone was given.
    await page.addInitScript(`
      window.__resumes = 0;
      const resume = AudioContext.prototype.resume;
      AudioContext.prototype.resume = function () {
        window.__context = this;
        window.__resumes++;
        return resume.call(this);
      };
      const ask = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      navigator.mediaDevices.getUserMedia = (c) => ask(c).then((s) => { window.__mic = true; return s; });
    `);
    await page.goto(dev.url);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.locator('svg .state.active', { hasText: 'greet' }).waitFor();
    await page.locator('#clock-pause').click();
    await expect.poll(() => page.evaluate('window.__context.state')).toBe('suspended');
    const resumes = await page.evaluate('window.__resumes');
    // The microphone opens while paused: the sounds stay held (nothing starts the context).
    await page.locator('#talk-with').selectOption('microphone');
    await page.waitForFunction('window.__mic === true');
    expect(await page.evaluate('window.__resumes')).toBe(resumes);
    expect(await page.evaluate('window.__context.state')).toBe('suspended');
    // Time runs again: so do the sounds.
    await page.locator('#clock-pause').click();
    await expect.poll(() => page.evaluate('window.__context.state')).toBe('running');
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await context.close();
  }, 60_000);

  it('talks with the microphone: its level drives talk detection', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 720 },
      permissions: ['microphone'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(dev.url);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.locator('svg .state.active', { hasText: 'greet' }).waitFor();
    // The fake microphone's voice is the caller talking: the page tells the server so.
    const talking = page.waitForRequest(
      (r) => r.url().endsWith('/api/talk') && JSON.parse(r.postData() ?? '{}').talking === true,
    );
    await page.locator('#talk-with').selectOption('microphone');
    await page.locator('#mic-level').waitFor();
    expect(JSON.parse((await talking).postData() ?? '{}')).toMatchObject({ talking: true });
    await expect
      .poll(() => page.locator('#mic-level').evaluate((m) => (m as unknown as { value: number }).value))
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await context.close();
  }, 60_000);
});
