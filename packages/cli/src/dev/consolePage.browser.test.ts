import { mkdtempSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from './test-support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { DESK_FLOW } from './test-support/deskFlow.ts';
import { seriousViolations } from './test-support/seriousViolations.ts';

const IVR = join(import.meta.dirname, '../../../../flows/ivr.yaml');
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * Where each screenshot goes: a temporary folder (printed, to look at them), and with
 * UPDATE_SCREENSHOTS=1 the ones the READMEs show to docs/ too.
 */
const shotsDir = mkdtempSync(join(tmpdir(), 'ringflow-shots-'));
const IN_DOCS: Readonly<Record<string, string>> = {
  'console-ivr-1920-light.png': 'console-diagram.png',
  'console-1280-dark.png': 'console-dark.png',
};
async function screenshot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: join(shotsDir, file) });
  const docs = IN_DOCS[file];
  if (process.env.UPDATE_SCREENSHOTS === '1' && docs)
    await copyFile(join(shotsDir, file), join('docs', docs));
}

/** What the page says of itself, read in the browser (a function's text: this file has no DOM types). */
const overflowing = `[document.documentElement, ...document.querySelectorAll('.left, .lower > .panel, #timeline, .timeline-pane, .panel')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1)
  .map((e) => (e.className || e.id || e.tagName) + ' ' + e.scrollWidth + '>' + e.clientWidth)`;

/** Presses Tab (at most 60 times) until the element `selector` has the focus: keyboard only. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await page.locator(selector).evaluate((e) => e === e.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/**
 * The console page as a designed product, at the two sizes it must hold (1280x720, 1920x1080),
 * light and dark: every pane readable without horizontal scrolling, the whole diagram in its
 * pane after "Fit", every arrow's label whole, a selected call's timeline only its own, the dial
 * pad used from the keyboard alone, and no serious or critical accessibility violation (axe-core).
 */
describe.skipIf(!HAS_CHROMIUM)('the console page at 1280x720 and 1920x1080, light and dark', () => {
  let dir: string;
  let dev: DevConsole;
  let browser: Browser;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-page-'));
    await writeFile(join(dir, 'desk.yaml'), DESK_FLOW);
    await copyFile(IVR, join(dir, 'ivr.yaml'));
    dev = await startDevConsole({ files: [join(dir, 'desk.yaml'), join(dir, 'ivr.yaml')], port: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    console.log(`screenshots in ${shotsDir}`);
    await browser?.close();
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('says it is loading until the flows arrive', async () => {
    const context = await browser.newContext({ viewport: SIZES[0] });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    // The flows' answer is held until the page has been seen loading.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/flows', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(dev.url);
    await page.locator('main.loading[aria-busy="true"]', { hasText: 'Loading the flows' }).waitFor();
    expect(await page.locator('main.grid').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    release();
    await page.locator('main.grid').waitFor();
    await page.locator('.conn', { hasText: 'connected' }).waitFor();
    await context.close();
  });

  for (const size of SIZES)
    for (const scheme of SCHEMES)
      it(`${size.width}x${size.height} ${scheme}`, async () => {
        const context = await browser.newContext({ viewport: size, colorScheme: scheme });
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        await page.goto(dev.url);
        await page.locator('main.grid').waitFor({ timeout: 10_000 });
        // No agent step in these flows: no box for words to a bot.
        expect(await page.locator('#say-text').count()).toBe(0);

        // The dial pad from the keyboard alone: Tab to Call, Enter; Tab to the key 1, Enter.
        await tabTo(page, '#call');
        await page.keyboard.press('Enter');
        const selected = page.locator('#calls .call.sel');
        await selected.waitFor({ timeout: 10_000 });
        const first = (await selected.getAttribute('data-call'))!;
        const active = page.locator('svg .state.active');
        await active.filter({ hasText: 'greet' }).waitFor({ timeout: 10_000 });
        await tabTo(page, '#pad button[data-key="1"]');
        await page.keyboard.press('Enter');
        await active.filter({ hasText: 'sales' }).waitFor({ timeout: 10_000 });
        await page.locator('svg .edge-label.path', { hasText: 'menu 1' }).waitFor({ timeout: 10_000 });
        // A digit typed while a key of the pad has the focus is pressed too.
        await page.keyboard.press('#');
        await page.locator('#timeline li', { hasText: 'ChannelDtmfReceived #' }).first().waitFor();

        // A second call: the timeline of the selected one shows only its own lines, unlabelled.
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        await expect
          .poll(() => page.locator('#calls .call.sel').getAttribute('data-call'), { timeout: 10_000 })
          .not.toBe(first);
        await page.locator(`#calls .call[data-call="${first}"]`).click();
        await page.locator('#timeline li', { hasText: 'ChannelDtmfReceived 1' }).first().waitFor();
        const calls = await page
          .locator('#timeline li')
          .evaluateAll((l) => l.map((e) => e.getAttribute('data-call')));
        expect(new Set(calls)).toEqual(new Set([first]));
        expect(await page.locator('#timeline .line-call').count()).toBe(0);
        // All calls: each line says its call. The filters and the search narrow it.
        await page.getByLabel('all calls', { exact: true }).check();
        await expect.poll(() => page.locator('#timeline .line-call').count()).toBeGreaterThan(0);
        await page.getByLabel('all calls', { exact: true }).uncheck();
        await page.getByLabel('requests', { exact: true }).uncheck();
        await page.getByLabel('events', { exact: true }).uncheck();
        await page.getByLabel('variables', { exact: true }).uncheck();
        await expect
          .poll(() => page.locator('#timeline li').evaluateAll((l) => l.map((e) => e.className)))
          .toEqual(expect.not.arrayContaining([expect.stringMatching(/k-(request|event|vars)/)]));
        await page.getByLabel('Search the timeline').fill('sales');
        await expect
          .poll(async () => {
            const texts = await page.locator('#timeline li .line-text').allTextContents();
            return texts.length > 0 && texts.every((t) => t.includes('sales'));
          })
          .toBe(true);
        await page.getByLabel('Search the timeline').fill('');
        for (const kind of ['requests', 'events', 'variables'])
          await page.getByLabel(kind, { exact: true }).check();
        await screenshot(page, `console-${size.width}-${scheme}.png`);

        // The big flow (flows/ivr.yaml): after "Fit", all of it is inside its pane.
        await page.locator('#flow').selectOption('main-ivr');
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        await active.first().waitFor({ timeout: 10_000 });
        // Zoomed from the keyboard (+, 0 fits again) and the wheel, then "Fit".
        const zoom = page.locator('.diagram-tools .zoom');
        // The fitted zoom of this flow: once its diagram is drawn and "Fit" asked, the same two
        // reads in a row (the previous flow's fit may still show for a frame or two).
        await page.locator('svg .state', { hasText: 'main-menu' }).first().waitFor();
        await page.getByRole('button', { name: 'Fit' }).click();
        let fittedZoom = await zoom.textContent();
        await expect
          .poll(async () => {
            const now = await zoom.textContent();
            const settled = now === fittedZoom;
            fittedZoom = now;
            return settled;
          })
          .toBe(true);
        // Laid out the way that shows it biggest (top to bottom here): readable, not a thumbnail.
        console.log(`fitted ${size.width}x${size.height}: ${fittedZoom}`);
        expect(Number.parseInt(fittedZoom ?? '0', 10)).toBeGreaterThanOrEqual(size.width === 1280 ? 75 : 90);
        await page.locator('.diagram').focus();
        await page.keyboard.press('+');
        await page.keyboard.press('+');
        await expect.poll(() => zoom.textContent()).not.toBe(fittedZoom);
        await page.keyboard.press('0');
        await expect.poll(() => zoom.textContent()).toBe(fittedZoom);
        // One wheel event (a real wheel may come as several, smoothed over time, some after "Fit").
        const box = (await page.locator('.diagram').boundingBox())!;
        await page
          .locator('.diagram')
          .dispatchEvent('wheel', { deltaY: -600, clientX: box.x + box.width / 2, clientY: box.y + 40 });
        await expect.poll(() => zoom.textContent()).not.toBe(fittedZoom);
        await page.getByRole('button', { name: 'Fit' }).click();
        await expect.poll(() => zoom.textContent()).toBe(fittedZoom);
        const pane = (await page.locator('.diagram').boundingBox())!;
        const shapes = page.locator('svg .state rect.box, svg .any-state rect, svg .edge-label');
        await expect
          .poll(async () => {
            const boxes = await Promise.all((await shapes.all()).map(async (s) => (await s.boundingBox())!));
            return boxes.filter(
              (b) =>
                b.x < pane.x - 0.5 ||
                b.y < pane.y - 0.5 ||
                b.x + b.width > pane.x + pane.width + 0.5 ||
                b.y + b.height > pane.y + pane.height + 0.5,
            ).length;
          })
          .toBe(0);
        expect(await shapes.count()).toBeGreaterThan(20);

        // Every arrow's label is drawn whole (wrapped, never cut) and is its accessible name.
        const arrows = await page.locator('svg .transition').evaluateAll((all) =>
          all.map((g) => ({
            name: g.getAttribute('aria-label') ?? '',
            title: g.querySelector('title')?.textContent ?? '',
            drawn: [...g.querySelectorAll('.edge-label tspan')].map((t) => t.textContent).join(' '),
          })),
        );
        expect(arrows.length).toBeGreaterThan(10);
        for (const arrow of arrows) {
          expect(arrow.drawn).not.toContain('…');
          // The full text: the arrow's tooltip (its title) and the start of its accessible name.
          const full = arrow.title.slice(arrow.title.indexOf(': ') + 2);
          const words = (text: string) => text.replace(/,/g, ' ').split(/\s+/).filter(Boolean);
          expect(words(arrow.drawn), arrow.title).toEqual(words(full));
          expect(arrow.name.replace(/\s+/g, ' ')).toMatch(
            `${arrow.drawn.replace(/\s+/g, ' ').trim()}: arrow from`,
          );
        }
        // An arrow clicked shows its ways in full and the steps of the state it leaves, with their place.
        const longest = arrows.reduce((a, b) => (b.title.length > a.title.length ? b : a));
        await page
          .locator('svg .transition')
          .filter({ has: page.locator(`title:text-is("${longest.title}")`) })
          .locator('.edge-label')
          .click();
        await page.locator('#steps .ways li').first().waitFor();
        expect((await page.locator('#steps .ways li').allTextContents()).join(', ')).toBe(
          longest.title.slice(longest.title.indexOf(': ') + 2),
        );
        await page
          .locator('#steps .place', { hasText: /ivr\.yaml:\d+:\d+/ })
          .first()
          .waitFor();
        // No pane scrolls sideways.
        expect(await page.evaluate(overflowing)).toEqual([]);
        await screenshot(page, `console-ivr-${size.width}-${scheme}.png`);

        expect(await seriousViolations(page)).toEqual([]);
        await page.getByRole('button', { name: 'Hang up', exact: true }).click();
        await context.close();
      }, 60_000);
});
