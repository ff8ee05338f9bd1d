import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { fakeMediaFlags, HAS_CHROMIUM, launchChromium } from './test-support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { echoAudioBot } from '../../../../examples/echo-audio-bot/echoAudioBot.ts';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { wavWarble } from './test-support/soundFiles.ts';

const ECHO_LINE = join(import.meta.dirname, '../../../../examples/echo-audio-bot/echo-line.yaml');
/** The bot's address in echo-line.yaml: the echo bot answers it, in process. */
const BOT_URL = 'ws://127.0.0.1:9200/echo';

/**
 * Records the call's line as it reaches the page's Web Audio graph, run before the page's script:
 * each 20 ms buffer of 16 kHz started (the line's frames) in window.__line with its pitch (from
 * its zero crossings) and level, and how many of them were stopped before their end (a flush).
 */
const RECORD_LINE = `
  window.__line = [];
  window.__lineStopped = 0;
  const isLine = (node) => node.buffer && node.buffer.sampleRate === 16000 && node.buffer.length === 320;
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (...args) {
    if (isLine(this)) {
      const s = this.buffer.getChannelData(0);
      let crossings = 0;
      let sum = 0;
      for (let i = 0; i < s.length; i++) {
        sum += s[i] * s[i];
        if (i > 0 && (s[i - 1] < 0) !== (s[i] < 0)) crossings++;
      }
      window.__line.push({ hz: crossings / 2 / 0.02, rms: Math.sqrt(sum / s.length) });
    }
    return start.apply(this, args);
  };
  const stop = AudioBufferSourceNode.prototype.stop;
  AudioBufferSourceNode.prototype.stop = function (...args) {
    if (isLine(this)) window.__lineStopped++;
    return stop.apply(this, args);
  };
`;

/** The line's frames the page played with sound in them, pitched between `low` and `high` Hz. */
const framesPitched = (page: Page, low: number, high: number) =>
  page.evaluate(
    `window.__line.filter((f) => f.rms > 0.02 && f.hz >= ${low} && f.hz <= ${high}).length`,
  ) as Promise<number>;

/**
 * Listens on the call's line (as a page does) until `frames` frames of the bot's audio came: the
 * caller has heard that much of it. Gives up after 10 s.
 */
async function heardOnLine(url: string, call: string, frames: number): Promise<void> {
  const ws = new WebSocket(`${url.replace('http:', 'ws:')}api/line?call=${call}`);
  let got = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${got} frames on the line of ${call} in 10 s`)),
        10_000,
      );
      ws.on('message', (_data, binary) => {
        if (binary && ++got >= frames) {
          clearTimeout(timer);
          resolve();
        }
      });
      ws.on('error', reject);
    });
  } finally {
    ws.close();
  }
}

/**
 * A bot of the audio protocol in the console: examples/echo-audio-bot's line, its echo bot in
 * process. The page plays the bot's own audio as the simulated line plays it (its two 880 Hz beeps
 * at setup, heard from the moment the page placed the call), the fake microphone's voice (a 400 Hz warble) goes to the bot, which plays it back,
 * heard in the page; the caller talking over the echo makes the bot clear it, and the page stops
 * it at once.
 */
describe.skipIf(!HAS_CHROMIUM)('ringflow dev: a bot of the audio protocol, heard and talked to', () => {
  let dir: string;
  let dev: DevConsole;
  let browser: Browser;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-audio-agent-'));
    // The caller talks 1.2 s, then is silent 1.8 s (looped): the echo (1.9 s from 1.9 s) is
    // talked over when the voice comes round again.
    const voice = join(dir, 'voice.wav');
    await writeFile(voice, wavWarble(1200, 1800));
    dev = await startDevConsole({
      files: [ECHO_LINE],
      port: 0,
      sounds: null,
      // Many echoes: the caller is not handed over while the test listens.
      audioBots: { [BOT_URL]: echoAudioBot({ echoes: 100 }) },
    });
    browser = await launchChromium(fakeMediaFlags(voice));
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("plays the bot's audio, carries the microphone to it, and stops a flushed echo at once", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 720 },
      permissions: ['microphone'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.addInitScript(RECORD_LINE);
    await page.goto(dev.url);
    // The server's reply that names the call is held until the bot's beeps have played (a busy
    // machine's order): the page still plays them, having placed the call.
    await page.route('**/api/call', async (route) => {
      const reply = await route.fetch();
      const { id } = (await reply.json()) as { id: string };
      await heardOnLine(dev.url, id, 15);
      await route.fulfill({ response: reply });
    });
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.locator('#timeline li[data-turn="connected"]', { hasText: '(audio protocol)' }).waitFor();
    // The bot's two beeps (880 Hz, 150 ms each) played frame by frame in the page.
    await expect.poll(() => framesPitched(page, 800, 960), { timeout: 15_000 }).toBeGreaterThanOrEqual(12);
    // The caller talks with the microphone: its voice goes on the line (not its level).
    await page.locator('#talk-with').selectOption('microphone');
    await page.locator('#mic-level[data-sends="voice"]').waitFor();
    // The bot plays the caller's words back: the warble comes back through the page.
    await expect.poll(() => framesPitched(page, 300, 520), { timeout: 20_000 }).toBeGreaterThanOrEqual(25);
    await page.locator('#now-playing li[data-file="bot audio"]').waitFor();
    // The voice comes round again over the echo: the bot clears it, and the page stops it at once.
    await page.locator('#timeline li[data-turn="interrupted"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.evaluate('window.__lineStopped')).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await context.close();
  }, 90_000);
});
