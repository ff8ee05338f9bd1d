import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, type Flow, loadFlowFile } from '@ringflow/dsl';
import {
  type AudioBot,
  type AudioRelayMessage,
  createAgentServices,
  createApplication,
  serveAudioBot,
} from '@ringflow/runtime';
import { createSimulator, type SimulatedServer, startWireServer } from '@ringflow/simulator';
import { until } from '@ringflow/testing';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { echoAudioBot } from '../../examples/echo-audio-bot/echoAudioBot.ts';
import { pitchOf } from '../agent/audioTestBots.ts';
import { virtualTimeOverWire } from '../runtime/virtualTimeOverWire.ts';

/** The flow with its agent step's bot at `url`. */
function withBot(flow: Flow, url: string): Flow {
  const echo = flow.document.states.echo!;
  return {
    ...flow,
    document: {
      ...flow.document,
      states: {
        ...flow.document.states,
        echo: {
          ...echo,
          steps: echo.steps!.map((s) =>
            typeof s === 'object' && 'agent' in s ? { agent: { ...s.agent, bot: url } } : s,
          ),
        },
      },
    },
  };
}

/**
 * The audio protocol over real sockets on 127.0.0.1: the application reaches the simulator over
 * HTTP and its event WebSocket, connects in to the media channel's WebSocket (`/media/<id>`), and
 * relays audio both ways with the demo echo bot served on a WebSocket of its own
 * (`ringflow-audio.1`). The caller's talk (the simulator's 440 Hz) reaches the bot in the
 * recorded framing (slin16, 640-byte binary messages of 20 ms), the bot's beeps and echoes reach
 * the caller in whole frames, and the flow routes on the bot's handoff. Virtual time, moved once
 * the sockets are quiet; the bot's timers run on the same virtual clock.
 */
it('examples/echo-audio-bot over the wire: beeps, two echoes of the caller, then the handoff', async () => {
  const clock = new VirtualClock();
  const simulator = createSimulator({ clock, endpoints: { 'PJSIP/operator': { answerAfterMs: 2_000 } } });
  let eventsSent = 0;
  const counted: SimulatedServer = {
    handle: (request) => simulator.handle(request),
    connectEvents: (request, deliver) =>
      simulator.connectEvents(request, (event) => {
        eventsSent++;
        deliver(event);
      }),
  };
  const wire = await startWireServer(counted, {
    users: [{ username: 'ringflow', password: 'secret' }],
    clock,
    media: simulator.media,
  });
  const told: AudioRelayMessage[] = [];
  const frames: number[] = [];
  const echo = echoAudioBot({ clock });
  const recordingBot: AudioBot = (conversation) => {
    conversation.onMessage((m) => told.push(m));
    conversation.onAudio((frame) => frames.push(frame.byteLength));
    echo(conversation);
  };
  const bot = await serveAudioBot(recordingBot, { path: '/echo' });
  const flow = withBot(
    await loadFlowFile(new URL('../../examples/echo-audio-bot/echo-line.yaml', import.meta.url).pathname),
    bot.url,
  );
  const app = createApplication({
    logger: pino({ level: 'silent' }),
    apps: ['echo'],
    clock,
    servers: [
      {
        name: 'pbx',
        url: wire.url,
        username: 'ringflow',
        password: 'secret',
        eventStream: { pingIntervalMs: 0 },
      },
    ],
    call: () =>
      createFlowCallMachine(flow, {
        agents: createAgentServices({ ariUrl: wire.url, metrics: app.metrics.agents }),
      }),
  });
  const world: Record<string, unknown>[] = [];
  simulator.driver.onEvent((event) => world.push(event as Record<string, unknown>));
  const { run } = virtualTimeOverWire(clock, app, () => eventsSent);
  const heard = (caller: string) => simulator.driver.heard(caller);
  /** The caller talks for `ms`, then the echo comes back within `thenMs`. */
  const say = async (caller: string, ms: number, count: number) => {
    simulator.driver.startTalking(caller);
    await run(ms);
    simulator.driver.stopTalking(caller);
    await run(800); // the bot's pause detection (700 ms)
    await until('the echo to arrive', () => (frames.length > 0 ? true : undefined));
    for (let i = 0; i < 20 && heard(caller).length < count; i++) await run(200);
  };
  try {
    await app.start();
    const caller = simulator.driver.placeCall({ from: '5551234', to: '100', app: 'echo' });
    await until('the bot to be set up', () => (told.some((m) => m.type === 'setup') ? true : undefined), {
      timeoutMs: 10_000,
    });
    await run(1_000);
    // The ready beeps: 150 + 50 + 150 ms of audio, one stretch of whole 20 ms frames at 880 Hz.
    expect(heard(caller).map((h) => [h.format, h.frames, h.flushed])).toEqual([['slin16', 18, false]]);
    expect(pitchOf(heard(caller)[0]!.audio.subarray(0, 4800))).toBe(880);
    expect(told).toContainEqual({ type: 'mark', name: 'ready', played: true });

    await say(caller, 1_000, 2);
    // The caller's second reached the bot as 640-byte binary messages, one per 20 ms frame.
    expect(frames.length).toBeGreaterThanOrEqual(49);
    expect(new Set(frames)).toEqual(new Set([640]));
    const first = heard(caller)[1]!;
    expect(first.flushed).toBe(false);
    expect(pitchOf(first.audio)).toBe(440);
    expect(first.frames).toBeGreaterThanOrEqual(49);

    await say(caller, 600, 3);
    await run(1_000);
    expect(heard(caller)).toHaveLength(3);
    const handoff = world.find((e) => e.type === 'ChannelUserevent' && e.eventname === 'EchoHandoff');
    expect((handoff as { userevent?: Record<string, unknown> } | undefined)?.userevent).toMatchObject({
      outcome: 'handoff',
      turns: '2',
    });
    // The media channel and its bridge are gone; the caller is dialling the operator.
    const channels = (await simulator.handle({ method: 'GET', path: '/channels', query: {} })).body as {
      name: string;
    }[];
    expect(channels.some((c) => c.name.startsWith('WebSocket/'))).toBe(false);
    expect(app.metrics.toPrometheus()).toContain('ringflow_agent_sessions_ended_total{outcome="handoff"} 1');
  } finally {
    await app.stop();
    await wire.close();
    await bot.close();
    simulator.close();
  }
});
