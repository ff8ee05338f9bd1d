import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from './test-support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderStatusBot } from '../../../../examples/order-status-bot/orderStatusBot.ts';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { readFeed } from './test-support/readFeed.ts';
import { seriousViolations } from './test-support/seriousViolations.ts';

const ORDER_STATUS = join(import.meta.dirname, '../../../../flows/order-status.yaml');
/** The bot's address in flows/order-status.yaml: the demo bot answers it, in process. */
const BOT_URL = 'ws://127.0.0.1:9100/order-status';

/**
 * An agent step in the console (issue 30 point 5): flows/order-status.yaml in `ringflow dev`, its
 * demo bot (examples/order-status-bot) answering the step's address. A call; the bot's greeting
 * on the call's timeline; words typed in the softphone spoken as the caller; the bot's answer
 * (from the flow's tool) on the timeline, each turn with its own look, under the agent filter, and
 * spoken in the page.
 * With UPDATE_SCREENSHOTS=1 the timeline is docs/console-agent.png.
 */
describe.skipIf(!HAS_CHROMIUM)('ringflow dev: an agent call in the page', () => {
  let dev: DevConsole;
  let browser: Browser;
  beforeAll(async () => {
    dev = await startDevConsole({
      files: [ORDER_STATUS],
      port: 0,
      sounds: null,
      bots: { [BOT_URL]: orderStatusBot() },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
  });

  it('shows the turns, and speaks typed words as the caller', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(15_000);
    // What the page says aloud, recorded instead of spoken.
    await page.addInitScript(`
      window.__spoken = [];
      speechSynthesis.speak = (u) => window.__spoken.push(u.text);
      speechSynthesis.cancel = () => window.__spoken.push('(cancelled)');
    `);
    await page.goto(dev.url);
    await page.locator('main.grid').waitFor();
    // No call: nothing to say to.
    expect(await page.locator('#say-text').isDisabled()).toBe(true);
    // The server's reply that names the call is held until the bot has greeted (a busy machine's
    // order): the greeting is still spoken, the call heard from the moment it was placed.
    await page.route('**/api/call', async (route) => {
      const reply = await route.fetch();
      await readFeed(dev.url, (messages) =>
        messages.some((m) => {
          const turn = (m.entry as { turn?: { kind?: string; text?: string } } | undefined)?.turn;
          return m.type === 'timeline' && turn?.kind === 'bot' && !!turn.text?.includes('How can I help');
        }),
      );
      await route.fulfill({ response: reply });
    });
    // The demo shop knows the orders of 5551234.
    await page.locator('#from').fill('5551234');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const turns = page.locator('#timeline li.k-agent');
    await turns.filter({ hasText: `bot connected: ${BOT_URL}` }).waitFor();
    await page.locator('#timeline li[data-turn="bot"]', { hasText: 'How can I help' }).waitFor();
    // The step listens: the box takes words; Enter says them.
    await page.locator('#say-text:enabled').fill('where is my order');
    await page.locator('#say-text').press('Enter');
    await expect.poll(() => page.locator('#say-text').inputValue()).toBe('');
    await page
      .locator('#timeline li[data-turn="caller"].side-caller', { hasText: 'where is my order' })
      .waitFor();
    await page.locator('#timeline li[data-turn="tool"]', { hasText: 'callerNumber' }).waitFor();
    await page.locator('#timeline li[data-turn="toolResult"]', { hasText: '5551234' }).waitFor();
    const answer = page.locator('#timeline li[data-turn="bot"].side-bot', { hasText: 'order 1234' });
    await answer.waitFor();
    expect(await answer.locator('.who').textContent()).toBe('bot said');
    expect(await answer.locator('q.said').textContent()).toContain('shipped yesterday');
    // The bot's words are spoken in the page (sound is on), the answer after the greeting.
    const spoken = (await page.evaluate('window.__spoken')) as string[];
    expect(spoken.findIndex((t) => t.includes('How can I help'))).toBeLessThan(
      spoken.findIndex((t) => t.includes('order 1234')),
    );
    expect(spoken.findIndex((t) => t.includes('How can I help'))).toBeGreaterThanOrEqual(0);
    // The agent filter: off, no turn is shown; on again, they are.
    await page.getByLabel('agent', { exact: true }).uncheck();
    await expect.poll(() => turns.count()).toBe(0);
    await page.getByLabel('agent', { exact: true }).check();
    await expect.poll(() => turns.count()).toBeGreaterThan(4);
    // The caller asks for a person: the session ends with the bot's handoff, the box is closed.
    await page.locator('#say-text').fill('can I talk to a person');
    await page.getByRole('button', { name: 'Say', exact: true }).click();
    await page.locator('#timeline li[data-turn="end"]', { hasText: 'handoff' }).waitFor();
    await page.locator('svg .state.active', { hasText: 'handoff' }).waitFor();
    await page.locator('#say-text:disabled').waitFor();
    // The conversation alone (the agent and state lines), as docs/agents.md shows it.
    for (const kind of ['events', 'requests', 'variables'])
      await page.getByLabel(kind, { exact: true }).uncheck();
    // At 1920x1080 the whole conversation shows, from the bot's connection on.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.locator('#timeline li[data-turn="connected"]').scrollIntoViewIfNeeded();
    await page.screenshot({
      path: join(process.env.UPDATE_SCREENSHOTS === '1' ? 'docs' : tmpdir(), 'console-agent.png'),
    });
    for (const kind of ['events', 'requests', 'variables'])
      await page.getByLabel(kind, { exact: true }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Hang up', exact: true }).click();
    await page.close();
  }, 60_000);
});
