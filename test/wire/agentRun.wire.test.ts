import { fileURLToPath } from 'node:url';
import {
  type AudioBot,
  type AudioRelayMessage,
  type BotMessage,
  type RelayMessage,
  serveAudioBot,
  serveTextBot,
  type TextBot,
} from '@ringflow/runtime';
import { until } from '@ringflow/testing';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { echoAudioBot } from '../../examples/echo-audio-bot/echoAudioBot.ts';
import { orderStatusBot } from '../../examples/order-status-bot/orderStatusBot.ts';
import { readFeed } from '../../packages/cli/src/dev/test-support/readFeed.ts';
import { ringflow } from './spawnRingflow.ts';
import { DEMO } from './wireClient.ts';

const flow = fileURLToPath(new URL('../../flows/order-status.yaml', import.meta.url));
const echoLine = fileURLToPath(new URL('../../examples/echo-audio-bot/echo-line.yaml', import.meta.url));

/**
 * `ringflow run flows/order-status.yaml` on `ringflow simulator`, as processes on 127.0.0.1: the
 * agent step's bot is the URL the flow names (the demo bot, served here on
 * ws://127.0.0.1:9100/order-status), the caller's audio reaches it through the media socket
 * `ringflow run` opens on the simulator's HTTP port, and the bot's words are spoken with espeak-ng
 * (the local speech providers, the default of `ringflow run`). The simulated caller's talk is a
 * tone, which no recogniser turns into words: the caller uses keys (1: where is my order, #: a
 * person), which go to the bot. The bot's `handoff` routes the flow to its handoff state.
 */
describe('ringflow run with an agent step on ringflow simulator', () => {
  it('flows/order-status.yaml: the caller hears the demo bot, asks with keys, and is handed off', async () => {
    const told: RelayMessage[] = [];
    const sent: BotMessage[] = [];
    const demo = orderStatusBot();
    const recording: TextBot = (conversation) => {
      conversation.onMessage((m) => told.push(m));
      demo({
        ...conversation,
        send: (m) => {
          sent.push(m);
          conversation.send(m);
        },
      });
    };
    const bot = await serveTextBot(recording, { port: 9100, path: '/order-status' });
    const sim = ringflow(['simulator', '--port', '0', '--endpoint', 'PJSIP/201=answer']);
    const server = /listening on (http:\/\/\S+)\/ari/.exec(await sim.until(/listening on \S+\n/))![1]!;
    const app = ringflow([
      'run',
      flow,
      '--server',
      server,
      '--user',
      'demo:demo',
      '--app',
      'order-status',
      '--format',
      'text',
    ]);
    try {
      await app.until('is running as application "order-status"');
      expect(app.output().stderr).toContain(
        'agent steps: text relay (espeak-ng, pocketsphinx); bots ws://127.0.0.1:9100/order-status',
      );
      const call = ringflow([
        'call',
        '--server',
        server,
        '--from',
        '5551234',
        '--app',
        'order-status',
        '--wait',
        '6s', // the greeting
        '--press',
        '1',
        '--wait',
        '9s', // the flow answers the bot's tool; the bot tells the order's status
        '--press',
        '#',
        '--wait',
        '4s',
      ]);
      const channel = /channel (\S+)\)/.exec(await call.until(/calling order-status \(channel \S+\)/))![1]!;
      await until('the bot to be set up', () => told.find((m) => m.type === 'setup'), {
        timeoutMs: 10_000,
        everyMs: 100,
      });
      expect(told.find((m) => m.type === 'setup')).toMatchObject({
        protocol: 'ringflow-text-relay.1',
        call: { id: channel, caller: { number: '5551234' } },
        context: { line: 'order-status' },
      });
      await until('the key 1 and the tool answer', () => told.find((m) => m.type === 'toolResult'), {
        timeoutMs: 15_000,
        everyMs: 100,
      });
      expect(told).toContainEqual({ type: 'key', digit: '1' });
      expect(told.find((m) => m.type === 'toolResult')).toMatchObject({ result: '5551234' });
      // The caller hears the bot's words, spoken by espeak-ng: the greeting, then the order's status.
      const heard = await until(
        'the greeting and the answer heard',
        async () => {
          const res = await request(`${server}/ringflow/driver/calls/${channel}/heard`, {
            headers: { Authorization: DEMO },
          });
          const { heard } = (await res.body.json()) as { heard: { frames: number; format: string }[] };
          return heard.length >= 2 ? heard : undefined;
        },
        { timeoutMs: 15_000, everyMs: 250 },
      );
      expect(heard.every((h) => h.format === 'slin16' && h.frames > 50)).toBe(true);
      await app.until('◆ handoff');
      expect(told).toContainEqual({ type: 'key', digit: '#' });
      expect(sent.at(-1)).toEqual({ type: 'end', result: 'handoff', data: { reason: 'asked' } });
      expect(await call.exit).toBe(0);
      // The media channel and its bridge are gone once the step ended.
      const channels = await request(`${server}/ari/channels`, { headers: { Authorization: DEMO } });
      const names = ((await channels.body.json()) as { name: string }[]).map((c) => c.name);
      expect(names.some((n) => n.startsWith('WebSocket/'))).toBe(false);
    } finally {
      app.child.kill('SIGTERM');
      sim.child.kill('SIGTERM');
      await Promise.all([app.exit, sim.exit]);
      await bot.close();
    }
  }, 60_000);

  it('examples/echo-audio-bot/echo-line.yaml (protocol: audio, no speech programs): two echoes, then the operator', async () => {
    const told: AudioRelayMessage[] = [];
    let frames = 0;
    const echo = echoAudioBot();
    const recording: AudioBot = (conversation) => {
      conversation.onMessage((m) => told.push(m));
      conversation.onAudio(() => frames++);
      echo(conversation);
    };
    const bot = await serveAudioBot(recording, { port: 9200, path: '/echo' });
    const sim = ringflow(['simulator', '--port', '0', '--endpoint', 'PJSIP/operator=answer']);
    const server = /listening on (http:\/\/\S+)\/ari/.exec(await sim.until(/listening on \S+\n/))![1]!;
    const app = ringflow([
      'run',
      echoLine,
      '--server',
      server,
      '--user',
      'demo:demo',
      '--app',
      'echo',
      '--format',
      'text',
      '--http',
      '127.0.0.1:0',
    ]);
    try {
      await app.until('is running as application "echo"');
      const live = await until(
        'the live view address (stderr)',
        () => /live view of the calls on (\S+)\n/.exec(app.output().stderr)?.[1],
      );
      expect(app.output().stderr).toContain('agent steps: audio; bots ws://127.0.0.1:9200/echo');
      const call = ringflow([
        'call',
        '--server',
        server,
        '--app',
        'echo',
        '--wait',
        '1500ms',
        '--talk',
        '--wait',
        '1s',
        '--silence',
        '--wait',
        '3s',
        '--talk',
        '--wait',
        '1s',
        '--silence',
        '--wait',
        '4s',
      ]);
      await app.until('◆ operator');
      expect(told[0]).toMatchObject({
        type: 'setup',
        protocol: 'ringflow-audio.1',
        media: { format: 'slin16' },
      });
      expect(told).toContainEqual({ type: 'mark', name: 'ready', played: true });
      expect(told).toContainEqual({ type: 'mark', name: 'echo-1', played: true });
      expect(told).toContainEqual({ type: 'mark', name: 'echo-2', played: true });
      expect(frames).toBeGreaterThanOrEqual(90); // two seconds of the caller's talk, 20 ms a frame
      // --http's live view shows the session on the call's timeline: the bot reached, its end.
      const turns = turnKinds(await readFeed(live, (messages) => turnKinds(messages).includes('end')));
      expect(turns).toContain('connected');
      expect(turns.at(-1)).toBe('end');
      expect(await call.exit).toBe(0);
    } finally {
      app.child.kill('SIGTERM');
      sim.child.kill('SIGTERM');
      await Promise.all([app.exit, sim.exit]);
      await bot.close();
    }
  }, 60_000);
});

/** The kinds of the agent turns among a feed's messages (timeline lines that carry a turn). */
function turnKinds(messages: Record<string, unknown>[]): string[] {
  return messages.flatMap((m) => {
    const turn = (m.entry as { turn?: { kind: string } } | undefined)?.turn;
    return turn ? [turn.kind] : [];
  });
}
