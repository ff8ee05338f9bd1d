import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';

const FLOW = `name: hello
start: greet
states:
  greet:
    steps:
      - answer
      - hangup: { reason: normal }
    final: true
`;

/** Reads the console's feed until `done` says enough, then closes it. */
async function readFeed(url: string, done: (messages: Record<string, unknown>[]) => boolean) {
  const controller = new AbortController();
  const response = await fetch(`${url}api/feed`, { signal: controller.signal });
  const reader = response.body!.getReader();
  const messages: Record<string, unknown>[] = [];
  let text = '';
  while (!done(messages)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += new TextDecoder().decode(value);
    const parts = text.split('\n\n');
    text = parts.pop() ?? '';
    for (const part of parts)
      messages.push(JSON.parse(part.slice('data: '.length)) as Record<string, unknown>);
  }
  controller.abort();
  return messages;
}

describe('startDevConsole', () => {
  let dir: string;
  let dev: DevConsole;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-dev-'));
    await writeFile(join(dir, 'hello.yaml'), FLOW);
    dev = await startDevConsole({ files: [join(dir, 'hello.yaml')], port: 0 });
  });
  afterAll(async () => {
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the page and the flows, with step places', async () => {
    expect(dev.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await (await fetch(dev.url)).text()).toContain('<title>ringflow dev</title>');
    const [flow] = (await (await fetch(`${dev.url}api/flows`)).json()) as {
      name: string;
      states: Record<string, { at: string }[]>;
    }[];
    expect(flow?.name).toBe('hello');
    expect(flow?.states.greet?.[0]?.at).toMatch(/hello\.yaml:6:\d+$/);
  });

  it('feeds a placed call: its state, its requests with status, its end', async () => {
    const { id } = (await (
      await fetch(`${dev.url}api/call`, { method: 'POST', body: JSON.stringify({ flow: 'hello' }) })
    ).json()) as { id: string };
    const messages = await readFeed(dev.url, (m) => m.some((x) => x.type === 'ended' && x.call === id));
    expect(messages).toContainEqual({ type: 'state', call: id, state: 'greet' });
    const texts = messages.flatMap((m) =>
      m.type === 'timeline' ? [(m.entry as { text: string }).text] : [],
    );
    expect(texts).toContainEqual(expect.stringMatching(new RegExp(`POST /channels/${id}/answer → 204`)));
  });

  it('lists a dialled far end as ringing until the page answers it', async () => {
    const file = join(dir, 'desk.yaml');
    await writeFile(
      file,
      `name: desk
start: ring
states:
  ring:
    steps:
      - answer
      - dial: { endpoint: PJSIP/operator, timeout: 60s, on: { completed: done, noAnswer: done, busy: done, failed: done } }
  done:
    final: true
`,
    );
    const desk = await startDevConsole({ files: [file], port: 0 });
    try {
      await fetch(`${desk.url}api/call`, { method: 'POST', body: JSON.stringify({ flow: 'desk' }) });
      const ringing = await readFeed(desk.url, (m) => m.some((x) => x.type === 'farEnd' && x.ringing));
      const farEnd = ringing.find((x) => x.type === 'farEnd')!;
      const answered = await fetch(`${desk.url}api/answer`, {
        method: 'POST',
        body: JSON.stringify({ call: farEnd.id }),
      });
      expect(await answered.text()).toBe('{}');
      await readFeed(desk.url, (m) => m.some((x) => x.type === 'farEnd' && x.id === farEnd.id && !x.ringing));
    } finally {
      await desk.stop();
    }
  });

  it('answers bad requests with a clear error', async () => {
    const response = await fetch(`${dev.url}api/call`, {
      method: 'POST',
      body: JSON.stringify({ flow: 'nope' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'no flow named "nope"' });
    await expect(startDevConsole({ files: [] })).rejects.toThrow(/give at least one flow file/);
  });
});
