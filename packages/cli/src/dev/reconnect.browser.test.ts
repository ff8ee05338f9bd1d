import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from './test-support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { DESK_FLOW } from './test-support/deskFlow.ts';

/**
 * A page whose console restarts (ringflow dev stopped and started again on its port) reconnects
 * and starts over from the new console's history: nothing of the old one stays, nothing is shown
 * twice. (A reconnection to the same console gets only what it missed: ConsoleFeed.test.ts.)
 */
describe.skipIf(!HAS_CHROMIUM)('ringflow dev: a page that reconnects', () => {
  let dir: string;
  let dev: DevConsole | undefined;
  let browser: Browser;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-reconnect-'));
    await writeFile(join(dir, 'desk.yaml'), DESK_FLOW);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('does not show the history twice after the console restarted', async () => {
    dev = await startDevConsole({ files: [join(dir, 'desk.yaml')], port: 0 });
    const port = Number(new URL(dev.url).port);
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(15_000);
    await page.goto(dev.url);
    const call = () => page.getByRole('button', { name: 'Call', exact: true }).click();
    const started = page.locator('#timeline li', { hasText: 'StasisStart' });
    await call();
    await page.locator('svg .state.active', { hasText: 'greet' }).waitFor();
    await started.first().waitFor();

    await dev.stop();
    dev = await startDevConsole({ files: [join(dir, 'desk.yaml')], port });
    // The page reconnects by itself: the old console's call is gone.
    await expect.poll(() => page.locator('#calls .call').count(), { timeout: 15_000 }).toBe(0);
    await page.locator('.conn', { hasText: 'connected' }).waitFor();
    // The new console's first call is call-1 again: its timeline is its own, once.
    await call();
    await page.locator('svg .state.active', { hasText: 'greet' }).waitFor();
    await page
      .locator('#timeline li', { hasText: /POST .*\/play → 201/ })
      .first()
      .waitFor();
    expect(await started.count()).toBe(1);
    expect(await page.locator('#calls .call').count()).toBe(1);
    await page.close();
  }, 60_000);
});
