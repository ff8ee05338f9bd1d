/**
 * How long the console page takes to show what its feed already holds, as when a page is opened
 * on a busy `ringflow dev` or on the live view of a production process: `--calls` calls are
 * placed (each sends ~13 feed messages), then Chromium opens the page and the time until every
 * call is listed as ended is taken. Run after `npm run build` (the page is dist/console/):
 *
 *   npx tsx --conditions source bench/console-page-open.ts [--calls 250]
 *
 * Not a test: figures depend on the machine and its load. Needs /usr/bin/chromium.
 * Measured (2 shared cores, 250 calls, 3253 timeline lines): the plain DOM page of before 19.7 s,
 * the Preact page rendering once per message 14.5 s, once per frame 2.3 s.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startDevConsole } from '../packages/cli/src/dev/startDevConsole.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '250' } } });
const calls = Number(values.calls);
const dir = mkdtempSync(join(tmpdir(), 'ringflow-bench-console-'));
writeFileSync(
  join(dir, 'hello.yaml'),
  'name: hello\nstart: greet\nstates:\n  greet:\n    steps:\n      - answer\n      - hangup: { reason: normal }\n    final: true\n',
);
const dev = await startDevConsole({ files: [join(dir, 'hello.yaml')], port: 0 });
try {
  for (let i = 0; i < calls; i++)
    await fetch(`${dev.url}api/call`, { method: 'POST', body: JSON.stringify({ flow: 'hello' }) });
  // Every call ends within a few seconds of real time.
  await new Promise((r) => setTimeout(r, 3000));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
    const started = performance.now();
    await page.goto(dev.url);
    await page.waitForFunction(
      `[...document.querySelectorAll('#calls .call')].filter((e) => e.textContent.includes('ended')).length >= ${calls}`,
      undefined,
      { timeout: 300_000 },
    );
    const ms = Math.round(performance.now() - started);
    const lines = await page.locator('#timeline div').count();
    console.log(`${calls} ended calls (${lines} timeline lines) shown ${ms} ms after the page was opened`);
  } finally {
    await browser.close();
  }
} finally {
  await dev.stop();
  rmSync(dir, { recursive: true, force: true });
}
