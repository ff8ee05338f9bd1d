import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { type ServedBot, serveAudioBot, serveTextBot } from '@ringflow/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderStatusBot } from '../../../../examples/order-status-bot/orderStatusBot.ts';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { readFeed } from './test-support/readFeed.ts';

const ORDER_STATUS = join(import.meta.dirname, '../../../../flows/order-status.yaml');
const BOT_URL = 'ws://127.0.0.1:9100/order-status';

const post = async (url: string, path: string, body: unknown) =>
  (await (await fetch(`${url}api/${path}`, { method: 'POST', body: JSON.stringify(body) })).json()) as {
    id?: string;
    error?: string;
  };

type Turn = { kind: string; text?: string; outcome?: string; by?: string; name?: string; ms?: number };
const turnsOf = (messages: Record<string, unknown>[], call: string): Turn[] =>
  messages.flatMap((m) => {
    const entry = m.entry as { call: string; kind: string; turn?: Turn } | undefined;
    return m.type === 'timeline' && entry?.kind === 'agent' && entry.call === call && entry.turn
      ? [entry.turn]
      : [];
  });

/**
 * An agent step in `ringflow dev` (flows/order-status.yaml and its demo bot served on a WebSocket,
 * as `examples/order-status-bot/serve.ts` serves it, at a port of its own): its turns on the call's timeline, and words typed for the caller spoken to
 * it as a scenario's `say:` speaks them. Real time (the console's clock follows the wall clock).
 */
describe('ringflow dev: agent steps', () => {
  let dev: DevConsole;
  let dir: string;
  let bot: ServedBot;
  beforeAll(async () => {
    bot = await serveTextBot(orderStatusBot(), { port: 0, path: '/order-status' });
    // A copy that names the served bot (a saved call is written beside its flow).
    dir = await mkdtemp(join(tmpdir(), 'ringflow-agent-'));
    const flow = (await readFile(ORDER_STATUS, 'utf8')).replaceAll(BOT_URL, bot.url);
    await writeFile(join(dir, 'order-status.yaml'), flow);
    dev = await startDevConsole({ files: [join(dir, 'order-status.yaml')], port: 0, sounds: null });
  });
  afterAll(async () => {
    await dev?.stop();
    await bot?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('feeds the turns, and the typed words reach the bot as the caller’s', async () => {
    const { id } = await post(dev.url, 'call', { flow: 'order-status', from: '5551234' });
    if (!id) throw new Error('no call placed');
    // The bot greets; then the caller's typed words are heard and answered from the tool.
    await readFeed(dev.url, (m) => turnsOf(m, id).some((t) => t.kind === 'bot'));
    expect(await post(dev.url, 'say', { call: id, text: 'where is my order' })).toEqual({});
    const messages = await readFeed(dev.url, (m) =>
      turnsOf(m, id).some((t) => t.kind === 'bot' && /order 1234/.test(t.text ?? '')),
    );
    const turns = turnsOf(messages, id);
    expect(turns[0]).toEqual({ kind: 'connected', bot: bot.url });
    expect(turns).toContainEqual({ kind: 'caller', text: 'where is my order' });
    expect(turns).toContainEqual(expect.objectContaining({ kind: 'tool', name: 'callerNumber' }));
    expect(turns).toContainEqual(expect.objectContaining({ kind: 'toolResult', result: '5551234' }));
    // How long the caller waited for the answer (the agent metrics' turn latency), after their words.
    const latency = turns.findIndex((t) => t.kind === 'latency');
    expect(latency).toBeGreaterThan(turns.findIndex((t) => t.kind === 'caller'));
    expect(turns[latency]?.ms).toBeGreaterThanOrEqual(0);
    // The step's media channel and bridge are lines of the call (its timeline shows them).
    const lines = messages.flatMap((m) =>
      m.type === 'timeline' ? [m.entry as { call: string; text: string }] : [],
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        call: id,
        text: expect.stringMatching(/^POST \/channels\/externalMedia → 200$/),
      }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ call: id, text: 'BridgeCreated' }));
    expect(lines.filter((l) => /^(channel-|bridge-|externalMedia)/.test(l.call))).toEqual([]);
    // The caller asks for a person: the bot ends the session with handoff, the flow follows it.
    await post(dev.url, 'say', { call: id, text: 'can I talk to a person' });
    const ended = await readFeed(dev.url, (m) => turnsOf(m, id).some((t) => t.kind === 'end'));
    expect(turnsOf(ended, id)).toContainEqual(
      expect.objectContaining({ kind: 'end', outcome: 'handoff', by: 'bot' }),
    );
    await readFeed(dev.url, (m) =>
      m.some((x) => x.type === 'state' && x.call === id && x.state === 'handoff'),
    );

    // Saved as a test (in the queue, where it is now): the bot scripted from what it did, the caller's words replayed; it passes.
    const saved = (await (
      await fetch(`${dev.url}api/save`, { method: 'POST', body: JSON.stringify({ call: id }) })
    ).json()) as {
      file: string;
      yaml: string;
      replay: { passed: boolean; failure?: unknown; timeline: string[] };
    };
    const scenario = (parse(saved.yaml) as { scenarios: Record<string, unknown>[] }).scenarios[0]!;
    expect(scenario.bot).toEqual({
      greet: expect.stringContaining('How can I help'),
      turns: [
        {
          hears: 'where is my order',
          tool: { name: 'callerNumber' },
          say: expect.stringContaining('Your order 1234 shipped yesterday'),
        },
        {
          hears: 'can I talk to a person',
          say: expect.any(String),
          end: { result: 'handoff', data: { reason: 'asked' } },
        },
      ],
    });
    expect(scenario.steps).toContainEqual({ say: 'where is my order' });
    expect(scenario.steps).toContainEqual({
      expect: expect.objectContaining({ bot: { tools: ['callerNumber'], ended: 'handoff' } }),
    });
    expect(saved.replay.passed, JSON.stringify(saved.replay.failure, null, 1)).toBe(true);
    expect(saved.file.startsWith(dir)).toBe(true);
    await post(dev.url, 'hangup', { call: id });
  }, 60_000);

  it('tells a bot that cannot be reached, and the flow goes on without it', async () => {
    // A port nobody listens on (taken, then given back).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const flow = (await readFile(ORDER_STATUS, 'utf8'))
      .replaceAll(BOT_URL, `ws://127.0.0.1:${port}/order-status`)
      .replace('name: order-status', 'name: order-status-away');
    await writeFile(join(dir, 'order-status-away.yaml'), flow);
    const away = await startDevConsole({
      files: [join(dir, 'order-status-away.yaml')],
      port: 0,
      sounds: null,
    });
    try {
      const { id } = await post(away.url, 'call', { flow: 'order-status-away' });
      if (!id) throw new Error('no call placed');
      const messages = await readFeed(away.url, (m) =>
        m.some((x) => x.type === 'state' && x.call === id && x.state === 'sorry'),
      );
      expect(turnsOf(messages, id)).toEqual([
        { kind: 'unreachable', bot: `ws://127.0.0.1:${port}/order-status`, reason: expect.any(String) },
      ]);
      expect(await post(away.url, 'say', { call: id, text: 'hello' })).toEqual({
        error: `no agent step is listening on ${id}`,
      });
      await post(away.url, 'hangup', { call: id });
    } finally {
      await away.stop();
    }
  }, 60_000);

  it("tells an audio bot's tools, its clear and its end (its words are its own audio)", async () => {
    const audioBot = await serveAudioBot(
      (c) =>
        c.onMessage((m) => {
          if (m.type === 'setup') c.send({ type: 'tool', id: 'n1', name: 'callerNumber' });
          if (m.type !== 'toolResult') return;
          // The bot drops its own audio (the caller talked over it), then ends.
          c.send({ type: 'clear' });
          c.send({ type: 'end', result: 'done', data: { number: m.result } });
        }),
      { port: 0, path: '/echo' },
    );
    await writeFile(
      join(dir, 'audio-desk.yaml'),
      `name: audio-desk
start: talk
states:
  talk:
    steps:
      - answer
      - agent:
          bot: ${audioBot.url}
          protocol: audio
          tools: { callerNumber: { expr: "call.caller.number" } }
          on: { done: bye, failed: bye }
  bye:
    final: true
`,
    );
    const audio = await startDevConsole({ files: [join(dir, 'audio-desk.yaml')], port: 0, sounds: null });
    try {
      const { id } = await post(audio.url, 'call', { flow: 'audio-desk', from: '5552000' });
      if (!id) throw new Error('no call placed');
      const messages = await readFeed(audio.url, (m) => turnsOf(m, id).some((t) => t.kind === 'end'));
      expect(turnsOf(messages, id)).toEqual([
        { kind: 'connected', bot: audioBot.url, protocol: 'audio' },
        { kind: 'tool', id: 'n1', name: 'callerNumber' },
        { kind: 'toolResult', id: 'n1', result: '5552000' },
        { kind: 'interrupted' },
        { kind: 'end', outcome: 'done', by: 'bot', data: { number: '5552000' } },
      ]);
    } finally {
      await audio.stop();
      await audioBot.close();
    }
  }, 60_000);

  it('refuses words for a call with no agent step listening, saying so', async () => {
    expect(await post(dev.url, 'say', { call: 'call-none', text: 'hello' })).toEqual({
      error: 'no agent step is listening on call-none',
    });
    expect(await post(dev.url, 'say', { call: 'call-none', text: '  ' })).toEqual({
      error: 'text: give the words the caller says',
    });
  });
});
