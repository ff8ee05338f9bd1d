import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { readFeed } from './test-support/readFeed.ts';
import { STEP_FLOW } from './test-support/stepFlow.ts';

const post = async (dev: DevConsole, path: string, body: unknown) =>
  (await (
    await fetch(`${dev.url}api/${path}`, { method: 'POST', body: JSON.stringify(body) })
  ).json()) as Record<string, unknown>;

/**
 * Step through a call over the console's HTTP interface: paused, the simulated time stands still
 * and the server's events wait; each step gives the flow one event (or moves time to the next
 * timer), and the feed tells what it did to the state and the variables.
 */
describe('ringflow dev: step through a call', () => {
  let dir: string;
  let dev: DevConsole;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-steps-'));
    await writeFile(join(dir, 'steps.yaml'), STEP_FLOW);
    dev = await startDevConsole({ files: [join(dir, 'steps.yaml')], port: 0 });
  });
  afterAll(async () => {
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('pauses at the menu; a key pressed waits; the step that gives it to the flow tells state and variables before and after', async () => {
    const { id } = (await post(dev, 'call', { flow: 'steps' })) as { id: string };
    // At the menu: its prompt was asked for.
    await readFeed(dev.url, (m) =>
      m.some((x) => x.type === 'timeline' && JSON.stringify(x).includes(`/channels/${id}/play`)),
    );
    const paused = await post(dev, 'clock', { action: 'pause' });
    expect(paused).toMatchObject({ paused: true });
    const stoodAt = paused.now as number;
    await post(dev, 'dtmf', { call: id, digits: '1' });
    // Time stands still: the key's tone has not ended, the flow has not heard it.
    expect(await post(dev, 'clock', { action: 'pause' })).toMatchObject({ paused: true, now: stoodAt });
    // Steps until the flow is given the key (the prompt's own events may come first).
    const taken: unknown[] = [];
    for (let i = 0; i < 10; i++) {
      const reply = await post(dev, 'clock', { action: 'step' });
      taken.push(reply.step);
      if (JSON.stringify(reply.step).includes('ChannelDtmfReceived 1')) break;
    }
    expect(taken).toContainEqual({ kind: 'event', event: 'ChannelDtmfReceived 1' });
    const messages = await readFeed(dev.url, (m) =>
      m.some((x) => x.type === 'step' && JSON.stringify(x).includes('"to":"picked"')),
    );
    const step = messages.find((x) => x.type === 'step' && JSON.stringify(x).includes('"to":"picked"'))?.step;
    expect(step).toMatchObject({
      call: id,
      event: 'ChannelDtmfReceived 1',
      from: 'greet',
      to: 'picked',
      via: 'greet',
      vars: [{ name: 'team', before: 'nobody', after: 'sales' }],
    });
    // The state message carries the event and the way taken (the diagram lights that arrow).
    expect(messages).toContainEqual(
      expect.objectContaining({ type: 'state', call: id, state: 'picked', from: 'greet', via: 'greet' }),
    );
    const clock = messages.filter((x) => x.type === 'clock').at(-1);
    expect(clock).toMatchObject({ paused: true });
    await post(dev, 'clock', { action: 'resume' });
    await post(dev, 'hangup', { call: id });
    const ended = await readFeed(dev.url, (m) => m.some((x) => x.type === 'ended' && x.call === id));
    // A flow-wide handler's step starts at "any state".
    expect(ended).toContainEqual(
      expect.objectContaining({ type: 'state', call: id, state: 'done', from: 'picked', via: '*' }),
    );
  });

  it('refuses an unknown action, saying which', async () => {
    expect(await post(dev, 'clock', { action: 'rewind' })).toEqual({
      error: 'action: expected pause, step or resume, got "rewind"',
    });
  });
});
