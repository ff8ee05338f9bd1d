import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import {
  type CallEnded,
  createAgentServices,
  createApplication,
  type RelayMessage,
  SimulatedSpeechToText,
  SimulatedTextToSpeech,
  serveTextBot,
  type TextBot,
  wordsInSlin,
} from '@ringflow/runtime';
import { createSimulator, type SimulatedServer, startWireServer } from '@ringflow/simulator';
import { until } from '@ringflow/testing';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { orderStatusBot } from '../../examples/order-status-bot/orderStatusBot.ts';
import { virtualTimeOverWire } from './virtualTimeOverWire.ts';

/**
 * flows/order-status.yaml over real sockets on 127.0.0.1: the application reaches the simulator
 * over HTTP and its event WebSocket, connects in to the media channel's WebSocket
 * (`/media/<id>`), and talks with the demo bot served on a WebSocket of its own. Speech is
 * simulated (the caller talks as sound; the words are handed to the recogniser); time is virtual,
 * moved once the sockets are quiet, and held while the bot answers in real time.
 */
it('flows/order-status.yaml over the wire: the caller asks the demo bot, hears its answer, and is handed off', async () => {
  const clock = new VirtualClock();
  const simulator = createSimulator({
    clock,
    endpoints: { 'PJSIP/201': { answerAfterMs: 3_000 }, 'PJSIP/202': 'noAnswer', 'PJSIP/203': 'noAnswer' },
  });
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
  const told: RelayMessage[] = [];
  const demo = orderStatusBot();
  const recordingBot: TextBot = (conversation) => {
    conversation.onMessage((m) => told.push(m));
    demo(conversation);
  };
  const bot = await serveTextBot(recordingBot, { path: '/order-status' });
  const stt = new SimulatedSpeechToText();
  const flow = await loadFlowFile(new URL('../../flows/order-status.yaml', import.meta.url).pathname);
  const app = createApplication({
    logger: pino({ level: 'silent' }),
    apps: ['orders'],
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
      createFlowCallMachine(
        {
          ...flow,
          document: {
            ...flow.document,
            states: {
              ...flow.document.states,
              arrive: {
                ...flow.document.states.arrive!,
                steps: flow.document.states.arrive!.steps!.map((s) =>
                  typeof s === 'object' && 'agent' in s ? { agent: { ...s.agent, bot: bot.url } } : s,
                ),
              },
            },
          },
        },
        {
          agents: createAgentServices({
            ariUrl: wire.url,
            speechToText: stt,
            textToSpeech: new SimulatedTextToSpeech(),
            metrics: app.metrics.agents,
          }),
        },
      ),
  });
  const world: Record<string, unknown>[] = [];
  simulator.driver.onEvent((event) => world.push(event as Record<string, unknown>));
  const ended: CallEnded[] = [];
  app.callEnded$.subscribe((r) => ended.push(r));
  const { run } = virtualTimeOverWire(clock, app, () => eventsSent);
  const heard = (caller: string) => simulator.driver.heard(caller).map((h) => wordsInSlin(h.audio, 640));
  try {
    await app.start();
    const caller = simulator.driver.placeCall({ from: '5551234', to: '100', app: 'orders' });
    await until('the bot to be set up and greet', () => told.some((m) => m.type === 'setup'), {
      timeoutMs: 10_000,
    });
    await run(5_000);
    expect(heard(caller)).toEqual(['Hello, you are through to the order line. How can I help?']);
    simulator.driver.startTalking(caller);
    await run(1_200);
    simulator.driver.stopTalking(caller);
    stt.hear('where is my order');
    await until('the flow to answer the tool', () => told.some((m) => m.type === 'toolResult'), {
      timeoutMs: 10_000,
    });
    await run(8_000);
    expect(heard(caller).at(-1)).toBe(
      'Your order 1234 shipped yesterday and arrives tomorrow. Can I help with anything else?',
    );
    simulator.driver.startTalking(caller);
    await run(900);
    simulator.driver.stopTalking(caller);
    stt.hear('a person please');
    await until('the bot to be told twice what the caller said', () =>
      told.filter((m) => m.type === 'caller').length >= 2 ? true : undefined,
    );
    await run(6_000);
    expect(heard(caller).at(-1)).toBe('Let me put you through to a colleague.');
    const handoff = world.find((e) => e.type === 'ChannelUserevent' && e.eventname === 'AgentHandoff');
    expect((handoff as { userevent?: Record<string, unknown> } | undefined)?.userevent).toMatchObject({
      reason: 'asked',
    });
    // The media channel and its bridge are gone; the caller waits in the queue.
    const channels = (await simulator.handle({ method: 'GET', path: '/channels', query: {} })).body as {
      name: string;
    }[];
    expect(channels.some((c) => c.name.startsWith('WebSocket/'))).toBe(false);
    const exported = app.metrics.toPrometheus();
    expect(exported).toContain('ringflow_agent_turn_latency_seconds_count 2');
    expect(exported).toContain('ringflow_agent_sessions_ended_total{outcome="handoff"} 1');
  } finally {
    await app.stop();
    await wire.close();
    await bot.close();
    simulator.close();
  }
});
