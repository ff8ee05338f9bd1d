import { mkdtempSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from './test-support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../ExitCode.ts';
import { main } from '../main.ts';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { DESK_FLOW } from './test-support/deskFlow.ts';

/**
 * Where a screenshot goes: the committed ones in docs/ when UPDATE_SCREENSHOTS=1 (to refresh them
 * after a change to the page), else a temporary folder, so a test run leaves the work tree as it was.
 */
const shotsDir =
  process.env.UPDATE_SCREENSHOTS === '1' ? 'docs' : mkdtempSync(join(tmpdir(), 'ringflow-shots-'));
const shot = (file: string) => join(shotsDir, file);

describe.skipIf(!HAS_CHROMIUM)('ringflow dev in a browser', () => {
  let dir: string;
  let dev: DevConsole;
  let browser: Browser;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-dev-'));
    await writeFile(join(dir, 'desk.yaml'), DESK_FLOW);
    // Extension 100 reaches the flow through the dialplan, as a phone system's would.
    await writeFile(
      join(dir, 'extensions.conf'),
      '[from-callers]\nexten => 100,1,NoOp(front desk)\n same => n,Stasis(desk)\n same => n,Hangup()\n',
    );
    dev = await startDevConsole({
      files: [join(dir, 'desk.yaml')],
      dialplanFile: join(dir, 'extensions.conf'),
      port: 0,
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('places a call, presses a key, sees the state and the requests, a broken flow, and hangs up', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(dev.url);
    await page.getByRole('button', { name: 'Call' }).click();
    const active = page.locator('svg .state.active');
    await active.filter({ hasText: 'greet' }).waitFor({ timeout: 10_000 });
    await page
      .locator('#timeline li', { hasText: /POST .*\/answer → 204/ })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.screenshot({ path: shot('console-call.png') });
    await page.locator('#pad button', { hasText: '1' }).click();
    await active.filter({ hasText: 'sales' }).waitFor({ timeout: 10_000 });
    await page
      .locator('#timeline li', { hasText: 'ChannelDtmfReceived 1' })
      .first()
      .waitFor({ timeout: 10_000 });
    // The arrow taken is drawn with the way that leads along it; the layout keeps boxes and labels apart.
    await page.locator('svg .edge-label.path', { hasText: 'menu 1' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('svg .edge-label').allTextContents()).toEqual(
      expect.arrayContaining(['after 5m', 'menu 1', 'after 60s', 'on hangup']),
    );
    // The flow-wide handler (on: hangup) leaves from "any state".
    expect(await page.locator('svg .any-state').textContent()).toMatch(/any state/);
    const boxes = await Promise.all(
      (await page.locator('svg .state rect.box, svg .any-state rect, svg .edge-label').all()).map(
        async (l) => (await l.boundingBox())!,
      ),
    );
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(
          a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y,
          `${JSON.stringify(a)} overlaps ${JSON.stringify(b)}`,
        ).toBe(true);
    await page.locator('svg .state', { hasText: 'greet' }).click();
    await page.locator('#steps', { hasText: /desk\.yaml:\d+:\d+/ }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: shot('console-key.png') });
    await writeFile(join(dir, 'desk.yaml'), DESK_FLOW.replace('"1": sales', '"1": nowhere'));
    await page.locator('#errors', { hasText: /desk\.yaml:\d+:\d+/ }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: shot('console-error.png') });
    // Fixed again: the error goes away (the call keeps the version it started with).
    await writeFile(join(dir, 'desk.yaml'), DESK_FLOW);
    // A function's text, run in the page (this file is not compiled with the DOM's types).
    await page.waitForFunction("document.getElementById('errors').textContent === ''", undefined, {
      timeout: 10_000,
    });
    await page.getByRole('button', { name: 'Hang up' }).click();
    await page.locator('#timeline li', { hasText: 'call ended' }).first().waitFor({ timeout: 10_000 });
    expect(await page.locator('svg .state.active').count()).toBe(0);

    // The call becomes a test: saved beside the flow, replayed at once, and `ringflow test` passes on it.
    await page.getByRole('button', { name: 'Save as test' }).click();
    const saved = page.locator('#saved .result');
    await saved.waitFor({ timeout: 20_000 });
    expect(await saved.textContent()).toMatch(/replay passed/);
    const file = /Saved (\S+\.test\.yaml)/.exec((await saved.textContent()) ?? '')?.[1];
    expect(file).toBe(join(dir, 'desk.call-1.test.yaml'));
    const yaml = await readFile(file!, 'utf8');
    expect(yaml).toMatch(/- press: "1"/);
    expect(yaml).toMatch(/- hangup/);
    expect(yaml).toMatch(/status: hungUp/);
    const out: string[] = [];
    const code = await main(['test', file!], { stdout: (t) => out.push(t), stderr: (t) => out.push(t) });
    expect(out.join('')).toMatch(/"passed":1,"failed":0/);
    expect(code).toBe(ExitCode.OK);
    await page.locator('#saved summary', { hasText: 'scenario' }).click();
    await page.locator('#saved pre.yaml', { hasText: 'hangup' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: shot('console-saved.png') });

    // The flow's scenarios, run from the page: the saved one passes, with its timeline.
    await page.getByRole('button', { name: 'Refresh' }).click();
    const entry = page.locator('.sfile', { hasText: 'desk.call-1.test.yaml' });
    await entry.getByRole('button', { name: 'Run all' }).click();
    await page
      .locator('#scenario-results .summary', { hasText: 'desk.call-1.test.yaml: 1 passed, 0 failed' })
      .waitFor({ timeout: 20_000 });
    const result = page.locator('#scenario-results details.result.pass');
    await result.locator('summary').click();
    await result.locator('pre.timeline', { hasText: 'caller presses 1' }).waitFor({ timeout: 10_000 });
    await result.locator('pre.timeline').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('console-scenarios.png') });

    // Changed so that key 1 no longer leads to sales: the saved test now fails, and the page says where.
    await writeFile(join(dir, 'desk.yaml'), DESK_FLOW.replace('"1": sales', '"1": done'));
    await page
      .locator('.sfile', { hasText: 'desk.call-1.test.yaml' })
      .getByRole('button', { name: 'Run all' })
      .click();
    await page
      .locator('#scenario-results .summary', { hasText: '0 passed, 1 failed' })
      .waitFor({ timeout: 20_000 });
    expect(await page.locator('#scenario-results details.result.fail pre').first().textContent()).toMatch(
      /desk\.call-1\.test\.yaml:\d+:\d+/,
    );

    // Through the dialplan: extension 100, whose Stasis(desk) sends the call into the flow.
    await page.locator('#flow').selectOption({ label: 'dialplan' });
    await page.locator('#exten').fill('100');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.locator('#calls .call.sel', { hasText: 'call-2' }).waitFor({ timeout: 10_000 });
    await page.locator('#timeline li', { hasText: 'ChannelDialplan' }).first().waitFor({ timeout: 10_000 });
    await active.filter({ hasText: 'greet' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await page
      .locator('#calls .call[data-call="call-2"]', { hasText: 'hungUp, by the caller' })
      .waitFor({ timeout: 10_000 });
  });
});
