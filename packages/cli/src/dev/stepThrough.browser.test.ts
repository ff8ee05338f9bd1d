import { mkdtempSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from './test-support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { STEP_FLOW } from './test-support/stepFlow.ts';

const shotsDir = mkdtempSync(join(tmpdir(), 'ringflow-shots-'));

/**
 * Step through a call in the page: pause the simulated time at the menu (from the keyboard), press
 * a key, step (N) until the flow is given it, and see what it did: the state and the variable
 * before and after, the arrow it took lit on the diagram.
 */
describe.skipIf(!HAS_CHROMIUM)('ringflow dev: step through in the page', () => {
  let dir: string;
  let dev: DevConsole;
  let browser: Browser;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-steps-'));
    await writeFile(join(dir, 'steps.yaml'), STEP_FLOW);
    dev = await startDevConsole({ files: [join(dir, 'steps.yaml')], port: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('pauses a call at the menu, steps a key press and sees the state and the variable change', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(10_000);
    await page.goto(dev.url);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const active = page.locator('svg .state.active');
    await active.filter({ hasText: 'greet' }).waitFor();
    // At the menu: its prompt was asked for.
    await page
      .locator('#timeline li', { hasText: /POST .*\/play → 201/ })
      .first()
      .waitFor();

    // P pauses (the keyboard's focus is on the Call button): the steps are shown.
    await page.keyboard.press('p');
    await page.locator('#clock-pause[aria-pressed="true"]').waitFor();
    await page.locator('#tab-steps[aria-selected="true"]').waitFor();
    const stoodAt = await page.locator('.clock-time').textContent();

    // The key is pressed, but time stands still: the flow has not heard it.
    await page.locator('#pad button[data-key="1"]').click();
    expect(await page.locator('.clock-time').textContent()).toBe(stoodAt);
    // N steps: one event at a time (the prompt's own may come first), until the flow is given the key.
    let given = false;
    for (let i = 0; i < 10 && !given; i++) {
      const [reply] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/clock')),
        page.keyboard.press('n'),
      ]);
      given = JSON.stringify(await reply.json()).includes('ChannelDtmfReceived 1');
    }
    expect(given).toBe(true);
    const step = page.locator('#flow-steps li[data-event="ChannelDtmfReceived 1"]');
    await step.waitFor();
    expect((await step.locator('.step-state td').textContent())?.replace(/\s+/g, ' ')).toBe('greet → picked');
    expect((await step.locator('.step-var[data-var="team"] td').textContent())?.replace(/\s+/g, ' ')).toBe(
      '"nobody" → "sales"',
    );
    // The arrow the key took is lit, the call is in its new state; still paused.
    await active.filter({ hasText: 'picked' }).waitFor();
    await page.locator('svg .transition.taken[data-from="greet"][data-to="picked"]').waitFor();
    expect(await page.locator('svg .transition.taken').count()).toBe(1);
    await page.locator('#clock-pause[aria-pressed="true"]').waitFor();
    await page.screenshot({ path: join(shotsDir, 'console-steps.png') });
    if (process.env.UPDATE_SCREENSHOTS === '1')
      await copyFile(join(shotsDir, 'console-steps.png'), join('docs', 'console-steps.png'));

    // Resumed, time runs again: the hang-up ends the call through the flow-wide handler.
    await page.getByRole('button', { name: '▶ Resume' }).click();
    await page.locator('#clock-pause[aria-pressed="false"]').waitFor();
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await page.locator('svg .transition.taken[data-from="*"][data-to="done"]').waitFor();
    await page.close();
  }, 60_000);
});
