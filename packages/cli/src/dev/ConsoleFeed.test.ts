import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleFeed } from './ConsoleFeed.ts';

/** The events of one connection to the feed at `url` (until `count` came), with their ids. */
async function events(url: string, count: number, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    signal: controller.signal,
    headers: lastEventId ? { 'last-event-id': lastEventId } : {},
  });
  const reader = response.body!.getReader();
  let text = '';
  const out: { id?: string; data: Record<string, unknown> }[] = [];
  while (out.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    const parts = text.split('\n\n');
    text = parts.pop() ?? '';
    for (const part of parts) {
      const lines = part.split('\n');
      const data = lines.find((l) => l.startsWith('data: '));
      const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
      if (data)
        out.push({ ...(id ? { id } : {}), data: JSON.parse(data.slice(6)) as Record<string, unknown> });
    }
  }
  controller.abort();
  return out;
}

describe('ConsoleFeed', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  const serve = async (feed: ConsoleFeed) => {
    server = createServer((req, res) => feed.serve(req, res, [{ type: 'feed-state' } as never]));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  };

  it('gives a page that reconnects only what it missed; one that comes from another feed starts over', async () => {
    const feed = new ConsoleFeed(() => 1000);
    const url = await serve(feed);
    feed.line('call-1', 'state', '◆ greet');
    feed.line('call-1', 'state', '◆ sales');
    const first = await events(url, 4);
    expect(first.map((e) => e.data.type)).toEqual(['feed', 'timeline', 'timeline', 'feed-state']);
    expect(first[0]?.data).toEqual({ type: 'feed', resumed: false });
    const lastId = first[2]?.id;
    expect(lastId).toMatch(/-2$/);
    feed.line('call-1', 'state', '◆ done');
    // The browser reconnects with the last id it had: the history it has is not sent again.
    const again = await events(url, 3, lastId);
    expect(again.map((e) => e.data)).toEqual([
      { type: 'feed', resumed: true },
      { type: 'timeline', entry: { at: 1000, call: 'call-1', kind: 'state', text: '◆ done' } },
      { type: 'feed-state' },
    ]);
    // An id of another feed (the console restarted): everything, and the page starts over.
    const other = await events(url, 5, 'abc.def.1-2');
    expect(other[0]?.data).toEqual({ type: 'feed', resumed: false });
    expect(other.filter((e) => e.data.type === 'timeline')).toHaveLength(3);
  });

  it('ends a page that asks once it is closed (a stopping console keeps no connection open)', async () => {
    const feed = new ConsoleFeed(() => 1000);
    const url = await serve(feed);
    feed.line('call-1', 'state', '◆ greet');
    feed.close();
    const response = await fetch(url);
    expect(response.status).toBe(200);
    // The whole answer: the browser is told to ask again in a second, and nothing else.
    expect(await response.text()).toBe('retry: 1000\n\n');
  });
});
