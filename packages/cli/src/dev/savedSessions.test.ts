import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TextBot } from '@ringflow/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { readFeed } from './test-support/readFeed.ts';

const BOT_URL = 'ws://127.0.0.1:9/desk';

/** A desk whose bot is talked to twice: the second agent step once the first is done. */
const DESK = `name: desk
start: first
states:
  first:
    steps:
      - answer
      - agent:
          bot: ${BOT_URL}
          callerTimeout: 20s
          as: one
          on: { done: second, handoff: second, failed: bye, unreachable: bye, callerSilent: bye }
  second:
    steps:
      - agent:
          bot: ${BOT_URL}
          callerTimeout: 20s
          as: two
          on: { done: bye, handoff: bye, failed: bye, unreachable: bye, callerSilent: bye }
  bye:
    steps:
      - userEvent:
          name: Ended
          variables: { one: { expr: "vars.one.outcome" }, two: { expr: "vars.two.outcome" } }
      - hangup
`;

/** Each conversation greets with its number, and ends (done, then handoff) once the caller spoke. */
function deskBot(): TextBot {
  let sessions = 0;
  return (c) => {
    const n = ++sessions;
    c.onMessage((m) => {
      if (m.type === 'setup') c.send({ type: 'say', text: `Desk ${n} here.` });
      if (m.type !== 'caller' || !m.final) return;
      c.send({ type: 'say', text: `Noted at desk ${n}.` });
      c.send({ type: 'end', result: n === 1 ? 'done' : 'handoff' });
    });
  };
}

const post = async (url: string, path: string, body: unknown) =>
  (await (await fetch(`${url}api/${path}`, { method: 'POST', body: JSON.stringify(body) })).json()) as Record<
    string,
    unknown
  >;

type Turn = { kind: string; text?: string };
const turnsOf = (messages: Record<string, unknown>[], call: string): Turn[] =>
  messages.flatMap((m) => {
    const entry = m.entry as { call: string; kind: string; turn?: Turn } | undefined;
    return m.type === 'timeline' && entry?.kind === 'agent' && entry.call === call && entry.turn
      ? [entry.turn]
      : [];
  });

/** A call with two agent sessions saved from the console: each session scripted, the replay passes. */
describe('ringflow dev: a call with several agent sessions saved as a test', () => {
  let dir: string;
  let dev: DevConsole;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-sessions-'));
    await writeFile(join(dir, 'desk.yaml'), DESK);
    dev = await startDevConsole({
      files: [join(dir, 'desk.yaml')],
      port: 0,
      sounds: null,
      bots: { [BOT_URL]: deskBot() },
    });
  });
  afterAll(async () => {
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('scripts every session of the bot, each with its own words', async () => {
    const { id } = (await post(dev.url, 'call', { flow: 'desk' })) as { id: string };
    const greeted = (n: number) => (m: Record<string, unknown>[]) =>
      turnsOf(m, id).some((t) => t.kind === 'bot' && t.text === `Desk ${n} here.`);
    await readFeed(dev.url, greeted(1));
    expect(await post(dev.url, 'say', { call: id, text: 'first words' })).toEqual({});
    await readFeed(dev.url, greeted(2));
    expect(await post(dev.url, 'say', { call: id, text: 'second words' })).toEqual({});
    await readFeed(dev.url, (m) => m.some((x) => x.type === 'ended' && x.call === id));
    const saved = (await post(dev.url, 'save', { call: id })) as {
      yaml: string;
      replay: { passed: boolean; failure?: unknown };
    };
    const scenario = (parse(saved.yaml) as { scenarios: Record<string, unknown>[] }).scenarios[0]!;
    expect(scenario.bot).toEqual({
      sessions: [
        {
          greet: 'Desk 1 here.',
          turns: [{ hears: 'first words', say: 'Noted at desk 1.', end: { result: 'done' } }],
        },
        {
          greet: 'Desk 2 here.',
          turns: [{ hears: 'second words', say: 'Noted at desk 2.', end: { result: 'handoff' } }],
        },
      ],
    });
    expect(scenario.steps).toContainEqual({ expect: expect.objectContaining({ bot: { ended: 'handoff' } }) });
    expect(saved.replay.passed, JSON.stringify(saved.replay.failure, null, 1)).toBe(true);
  }, 60_000);
});
