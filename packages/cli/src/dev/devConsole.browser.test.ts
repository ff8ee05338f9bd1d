import { existsSync, mkdtempSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';

const CHROMIUM = '/usr/bin/chromium';
const FLOW = `name: desk
prompts:
  en:
    hello: sound:hello-world
    sales: sound:queue-periodic-announce
start: greet
on:
  hangup: done
states:
  greet:
    steps:
      - answer
      - menu:
          prompt: hello
          timeout: 60s
          choices:
            "1": sales
    after:
      5m: done
  sales:
    steps:
      - play: { prompt: sales }
    after:
      60s: done
  done:
    final: true
`;

/**
 * Where a screenshot goes: the committed ones in docs/ when UPDATE_SCREENSHOTS=1 (to refresh them
 * after a change to the page), else a temporary folder, so a test run leaves the work tree as it was.
 */
const shotsDir =
  process.env.UPDATE_SCREENSHOTS === '1' ? 'docs' : mkdtempSync(join(tmpdir(), 'ringflow-shots-'));
const shot = (file: string) => join(shotsDir, file);

describe.skipIf(!existsSync(CHROMIUM))('ringflow dev in a browser', () => {
  let dir: string;
  let dev: DevConsole;
  let browser: Browser;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-dev-'));
    await writeFile(join(dir, 'desk.yaml'), FLOW);
    dev = await startDevConsole({ files: [join(dir, 'desk.yaml')], port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('places a call, presses a key, sees the state and the requests, a broken flow, and hangs up', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
    await page.goto(dev.url);
    await page.getByRole('button', { name: 'Call' }).click();
    const active = page.locator('svg .state.active');
    await active.filter({ hasText: 'greet' }).waitFor({ timeout: 10_000 });
    await page
      .locator('#timeline div', { hasText: /POST .*\/answer → 204/ })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.screenshot({ path: shot('console-call.png') });
    await page.locator('#pad button', { hasText: '1' }).click();
    await active.filter({ hasText: 'sales' }).waitFor({ timeout: 10_000 });
    await page
      .locator('#timeline div', { hasText: 'ChannelDtmfReceived 1' })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.locator('svg .state', { hasText: 'greet' }).click();
    await page.locator('#steps', { hasText: /desk\.yaml:\d+:\d+/ }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: shot('console-key.png') });
    await writeFile(join(dir, 'desk.yaml'), FLOW.replace('"1": sales', '"1": nowhere'));
    await page.locator('#errors', { hasText: /desk\.yaml:\d+:\d+/ }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: shot('console-error.png') });
    await page.getByRole('button', { name: 'Hang up' }).click();
    await page.locator('#timeline div', { hasText: 'call ended' }).first().waitFor({ timeout: 10_000 });
    expect(await page.locator('svg .state.active').count()).toBe(0);
  });
});
