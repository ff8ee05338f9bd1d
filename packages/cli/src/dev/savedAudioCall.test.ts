import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServedBot, serveAudioBot } from '@ringflow/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { parse } from 'yaml';
import { echoAudioBot } from '../../../../examples/echo-audio-bot/echoAudioBot.ts';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { readFeed } from './test-support/readFeed.ts';

const ECHO_LINE = join(import.meta.dirname, '../../../../examples/echo-audio-bot/echo-line.yaml');

/** 20 ms of the caller's voice (a 400 Hz tone), or of silence, at 16 kHz (slin16). */
function frame(n: number, voiced: boolean): Uint8Array {
  const bytes = new Uint8Array(640);
  if (!voiced) return bytes;
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 320; i++)
    view.setInt16(i * 2, Math.round(8000 * Math.sin((2 * Math.PI * 400 * (n * 320 + i)) / 16_000)), true);
  return bytes;
}

/** Sends `ms` of voice (or silence) on the line, a frame every 20 ms, as a microphone does. */
async function speak(ws: WebSocket, ms: number, voiced: boolean): Promise<void> {
  for (let n = 0; n < ms / 20; n++) {
    ws.send(frame(n, voiced));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A call with a bot of the audio protocol, talked to on the call's line (as the page's microphone
 * does) and saved as a test: the caller's talk is replayed (`talk:`), the bot is reached at its
 * address (its words are its own audio: no script), and the replay takes the same way.
 */
describe('ringflow dev: a call with an audio bot saved as a test', () => {
  let dir: string;
  let bot: ServedBot;
  let dev: DevConsole;
  beforeAll(async () => {
    bot = await serveAudioBot(echoAudioBot(), { port: 0, path: '/echo' });
    dir = await mkdtemp(join(tmpdir(), 'ringflow-audio-saved-'));
    const flow = (await readFile(ECHO_LINE, 'utf8')).replaceAll('ws://127.0.0.1:9200/echo', bot.url);
    await writeFile(join(dir, 'echo-line.yaml'), flow);
    dev = await startDevConsole({ files: [join(dir, 'echo-line.yaml')], port: 0, sounds: null });
  });
  afterAll(async () => {
    await dev?.stop();
    await bot?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("replays the caller's talk to the bot at its address, and takes the same way", async () => {
    const reply = await fetch(`${dev.url}api/call`, {
      method: 'POST',
      body: JSON.stringify({ flow: 'echo-line' }),
    });
    const { id } = (await reply.json()) as { id: string };
    const line = new WebSocket(`${dev.url.replace('http:', 'ws:')}api/line?call=${id}&placed=1`);
    let heard = 0;
    line.on('message', (_data, binary) => {
      if (binary) heard++;
    });
    await new Promise((resolve) => line.once('open', resolve));
    // The bot's beeps: it is bridged with the caller.
    for (let waited = 0; heard < 10; waited += 20) {
      if (waited > 10_000) throw new Error('no beeps on the line in 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The caller talks twice, each time heard back; then the bot hands over to the operator.
    for (let turn = 0; turn < 2; turn++) {
      await speak(line, 600, true);
      await speak(line, 2400, false);
    }
    await readFeed(dev.url, (m) =>
      m.some((x) => x.type === 'state' && x.call === id && x.state === 'operator'),
    );
    line.close();
    const saved = (await (
      await fetch(`${dev.url}api/save`, { method: 'POST', body: JSON.stringify({ call: id }) })
    ).json()) as { yaml: string; replay: { passed: boolean; failure?: unknown } };
    const scenario = (parse(saved.yaml) as { scenarios: Record<string, unknown>[] }).scenarios[0]!;
    expect(scenario.bot).toEqual({ url: bot.url });
    const talks = (scenario.steps as Record<string, unknown>[]).filter((s) => 'talk' in s);
    expect(talks).toHaveLength(2);
    expect(saved.yaml).toContain('Its bot speaks the audio protocol');
    expect(saved.replay.passed, JSON.stringify(saved.replay.failure, null, 1)).toBe(true);
  }, 90_000);
});
