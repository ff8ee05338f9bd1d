import { mkdtempSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from './test-support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../ExitCode.ts';
import { main } from '../main.ts';

const FLOW = `name: line
start: menu
prompts:
  en:
    hello: sound:hello-world
states:
  menu:
    steps:
      - answer
      - menu: { prompt: hello, timeout: 30s, choices: { "1": operator } }
    after:
      5m: done
  operator:
    steps:
      - dial: { endpoint: PJSIP/operator, timeout: 60s, on: { completed: done, noAnswer: done, busy: done, failed: done } }
  done:
    final: true
`;
const DRIVER = `Basic ${Buffer.from('u:p').toString('base64')}`;
const shotsDir =
  process.env.UPDATE_SCREENSHOTS === '1' ? 'docs' : mkdtempSync(join(tmpdir(), 'ringflow-shots-'));

/** Waits (bounded) until `found` answers something. */
async function until<T>(found: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await found();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/**
 * The live view of `ringflow run --http` in a browser, as an operator uses it: a call from the
 * server (the simulator, driven over its driver API as phones would) followed on the diagram, then
 * downloaded as a test that `ringflow test` passes.
 */
describe.skipIf(!HAS_CHROMIUM)('the live view of ringflow run --http in a browser', () => {
  let dir: string;
  let browser: Browser;
  let simulator: ReturnType<typeof createSimulator>;
  let wire: Awaited<ReturnType<typeof startWireServer>>;
  const said: string[] = [];
  let stop: (signal: string) => void = () => {};
  let run: Promise<number>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-live-'));
    await writeFile(join(dir, 'line.yaml'), FLOW);
    simulator = createSimulator({
      clock: systemClock,
      endpoints: ['PJSIP/operator'],
      answerOutboundAfterMs: null,
    });
    wire = await startWireServer(simulator, {
      users: [{ username: 'u', password: 'p' }],
      driver: simulator.driver,
    });
    const stopped = new Promise<string>((resolve) => {
      stop = resolve;
    });
    run = main(
      [
        'run',
        join(dir, 'line.yaml'),
        '--server',
        wire.url,
        '--user',
        'u',
        '--password',
        'p',
        '--app',
        'line-app',
        '--http',
        '127.0.0.1:0',
        '--http-user',
        'ops',
        '--http-password',
        'secret',
        '--drain',
        '1s',
      ],
      { stdout: (t) => said.push(t), stderr: (t) => said.push(t), waitForStop: () => stopped },
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    stop('SIGTERM');
    const code = await Promise.race([
      run,
      new Promise((r) => setTimeout(() => r('still running after 10 s'), 10_000)),
    ]);
    await wire?.close();
    simulator?.close();
    await rm(dir, { recursive: true, force: true });
    expect(code, said.join('')).toBe(ExitCode.OK);
  });

  it('follows a call from the server on the diagram, and downloads it as a test that passes', async () => {
    const view = await until(
      () => /live view of the calls on (http:\/\/127\.0\.0\.1:\d+\/console\/)/.exec(said.join(''))?.[1],
      'the live view URL',
    );
    await until(() => (/application started/.test(said.join('')) ? true : undefined), 'the application');
    const driver = `${wire.url.replace(/\/ari$/, '')}/ringflow/driver`;
    const drive = async (method: string, path: string, body?: Record<string, unknown>) => {
      const response = await fetch(`${driver}${path}`, {
        method,
        headers: { authorization: DRIVER, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    };
    const context = await browser.newContext({
      httpCredentials: { username: 'ops', password: 'secret' },
      acceptDownloads: true,
      viewport: { width: 1280, height: 720 },
    });
    const page = await context.newPage();
    await page.goto(view);
    await page.locator('svg .state', { hasText: 'operator' }).waitFor({ timeout: 10_000 });
    // Read-only: nothing on it places or acts on calls.
    expect(await page.locator('#call, #pad, .scenarios').count()).toBe(0);

    const { id } = (await drive('POST', '/calls', { app: 'line-app', from: '5551234' })) as { id: string };
    const row = page.locator('#calls .call', { hasText: id });
    await row.click({ timeout: 10_000 });
    const active = page.locator('svg .state.active');
    await active.filter({ hasText: 'menu' }).waitFor({ timeout: 10_000 });
    await drive('POST', `/calls/${id}/dtmf`, { digits: '1' });
    await active.filter({ hasText: 'operator' }).waitFor({ timeout: 10_000 });
    await page.locator('svg .edge-label.path', { hasText: 'menu 1' }).waitFor({ timeout: 10_000 });
    const farEnd = await until(async () => {
      const channels = (await (
        await fetch(`${wire.url}/channels`, { headers: { authorization: DRIVER } })
      ).json()) as {
        id: string;
      }[];
      return channels.find((c) => c.id !== id)?.id;
    }, 'the dialled far end');
    // The far end is listed as it rings, then answered; nothing on the page acts on it.
    const listed = page.locator('#calls .farend', { hasText: 'PJSIP/operator' });
    await listed.filter({ hasText: 'ringing' }).waitFor({ timeout: 10_000 });
    expect(await listed.locator('button').count()).toBe(0);
    await drive('POST', `/calls/${farEnd}/answer`);
    await listed.filter({ hasText: 'answered' }).waitFor({ timeout: 10_000 });
    await page
      .locator('#timeline li', { hasText: `ChannelStateChange (${farEnd})` })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(shotsDir, 'console-live.png') });
    await drive('DELETE', `/calls/${farEnd}`);
    await row.filter({ hasText: 'ended' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#calls .farend').count()).toBe(0);

    // Save as test: the browser gets the file; the server writes nothing beside the flow.
    const downloading = page.waitForEvent('download', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Save as test' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`line.${id}.test.yaml`);
    const kept = join(dir, download.suggestedFilename());
    expect(await readdir(dir)).toEqual(['line.yaml']);
    await download.saveAs(kept);
    const saved = page.locator('#saved .result');
    await saved.waitFor({ timeout: 20_000 });
    expect(await saved.textContent()).toBe(`Downloaded line.${id}.test.yaml — replay passed ✓`);
    const yaml = await readFile(kept, 'utf8');
    expect(yaml).toMatch(/- press: "1"/);
    expect(yaml).toMatch(/PJSIP\/operator:\n\s+answerAfter: \d+m?s/);
    expect(yaml).toMatch(/- hangupFarEnd: PJSIP\/operator/);
    await page.locator('#saved summary', { hasText: 'scenario' }).click();
    await page.screenshot({ path: join(shotsDir, 'console-live-saved.png') });
    const out: string[] = [];
    const code = await main(['test', kept], { stdout: (t) => out.push(t), stderr: (t) => out.push(t) });
    expect(out.join('')).toMatch(/"passed":1,"failed":0/);
    expect(code).toBe(ExitCode.OK);
    await context.close();
  });
});
