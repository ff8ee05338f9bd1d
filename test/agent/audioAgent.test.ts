import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, parseFlow } from '@ringflow/dsl';
import {
  type AgentServices,
  AgentMetrics,
  type AudioBot,
  heldMediaLink,
  linkInProcessAudioBot,
  MetricsRegistry,
} from '@ringflow/runtime';
import { createMediaPipePair, createSimulator, type Simulator } from '@ringflow/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { inProcessApp } from '../runtime/harness.ts';
import { echoBot, FRAME_BYTES, pitchOf, politeBot, talkerBot } from './audioTestBots.ts';

/**
 * The agent step with `protocol: audio` on the in-process simulator, in virtual time: the
 * caller's frames reach the bot, the bot's audio reaches the caller (paced into frames by the
 * client's MediaSocket), marks come back, the bot's `clear` flushes, ringflow's own barge-in is
 * opt-in, keys go to the bot, and the flow routes on how the bot ended.
 */

function flowText(agent: string): string {
  return `
name: audio-line
start: talk
states:
  talk:
    steps:
      - answer
      - agent:
          bot: echo
          protocol: audio
${agent
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => `          ${l.trim()}`)
  .join('\n')}
          as: chat
          on:
            handoff: { goto: ended, set: { how: handoff } }
            done: { goto: ended, set: { how: done } }
            failed: { goto: ended, set: { how: failed } }
            botSilent: { goto: ended, set: { how: botSilent } }
            key: { goto: ended, set: { how: key } }
            callerSilent: { goto: ended, set: { how: callerSilent } }
  ended:
    steps:
      - userEvent:
          name: AgentEnded
          variables:
            how: { expr: "vars.how" }
            message: { expr: "vars.chat.message" }
            interruptions: { expr: "string(vars.chat.interruptions)" }
            turns: { expr: "string(vars.chat.turns)" }
            data: { expr: "vars.chat.data" }
      - hangup
`;
}

let stops: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.reverse()) await stop();
  stops = [];
});

interface Line {
  readonly sim: Simulator;
  readonly clock: VirtualClock;
  readonly metrics: AgentMetrics;
  readonly ended: () => Record<string, unknown> | undefined;
  readonly caller: string;
}

async function call(bot: AudioBot, agent = '', clockIn?: VirtualClock): Promise<Line> {
  const clock = clockIn ?? new VirtualClock();
  const sim = createSimulator({ clock });
  const parsed = parseFlow(flowText(agent));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  const metrics = new AgentMetrics(new MetricsRegistry());
  const services: AgentServices = {
    connectBot: async () => {
      throw new Error('this test has text bots');
    },
    connectAudioBot: async () => linkInProcessAudioBot(bot),
    connectMedia: async (id) => {
      const accept = sim.media.acceptIncoming(id);
      if (typeof accept !== 'function') throw new Error(`refused ${accept.status}`);
      const { server, app } = createMediaPipePair();
      const link = heldMediaLink(app);
      accept(server);
      return link;
    },
    metrics,
  };
  const { app } = inProcessApp(clock, [{ name: 'pbx', server: sim }], {
    apps: ['audio'],
    call: createFlowCallMachine(parsed.flow, { agents: services }),
  });
  let ended: Record<string, unknown> | undefined;
  sim.driver.onEvent((e) => {
    const event = e as { type?: string; eventname?: string; userevent?: Record<string, unknown> };
    if (event.type === 'ChannelUserevent' && event.eventname === 'AgentEnded') ended = event.userevent;
  });
  await app.start();
  stops.push(async () => {
    await app.stop();
    sim.close();
  });
  const caller = sim.driver.placeCall({ from: '5551234', to: '100', app: 'audio' });
  return { sim, clock, metrics, ended: () => ended, caller };
}

async function talk(line: Line, ms: number): Promise<void> {
  line.sim.driver.startTalking(line.caller);
  await line.clock.advance(ms);
  line.sim.driver.stopTalking(line.caller);
}

const mediaChannelsLeft = async (sim: Simulator) =>
  ((await sim.handle({ method: 'GET', path: '/channels', query: {} })).body as { name: string }[]).filter(
    (c) => c.name.startsWith('WebSocket/'),
  ).length;

describe('agent step, protocol audio, on the in-process simulator', () => {
  it('an echo bot: the caller hears its greeting, then their own words back; the bot ends with handoff', async () => {
    const clock = new VirtualClock();
    const { bot, log } = echoBot(clock);
    const line = await call(bot, '', clock);
    await clock.advance(2_000);
    const setup = log.told.find((m) => m.type === 'setup');
    expect(setup).toMatchObject({
      protocol: 'ringflow-audio.1',
      call: { caller: { number: '5551234' }, extension: '100' },
      media: { format: 'slin16', sampleRate: 16_000, frameMs: 20, frameBytes: 640 },
    });
    // The greeting: a second of 1000 Hz, in whole frames; its mark came back as played.
    const greeting = line.sim.driver.heard(line.caller);
    expect(greeting.map((h) => [h.frames, pitchOf(h.audio), h.flushed])).toEqual([[50, 1000, false]]);
    expect(log.told).toContainEqual({ type: 'mark', name: 'greeting', played: true });
    expect(log.frames).toEqual([]); // the caller said nothing yet
    await talk(line, 1_000);
    await clock.advance(3_000);
    // The caller's second of speech (the simulator's 440 Hz) reached the bot in 20 ms frames...
    expect(log.frames.length).toBeGreaterThanOrEqual(49);
    expect(new Set(log.frames)).toEqual(new Set([FRAME_BYTES]));
    expect(log.callerPitch()).toBe(440);
    // ...and came back: the caller heard themselves.
    const heard = line.sim.driver.heard(line.caller);
    expect(heard).toHaveLength(2);
    expect(pitchOf(heard[1]!.audio)).toBe(440);
    expect(heard[1]!.frames).toBe(log.frames.length);
    expect(line.ended()).toMatchObject({ how: 'handoff', turns: '1', interruptions: '0' });
    expect(JSON.parse(String(line.ended()?.data))).toEqual({ reason: 'echoed', frames: 50 });
    expect(line.metrics.turnLatencySeconds.samples()[0]?.count).toBe(1);
    expect(line.metrics.sessionsEnded.get({ outcome: 'handoff' })).toBe(1);
    expect(await mediaChannelsLeft(line.sim)).toBe(0);
  });

  it("the bot's own barge-in: its clear flushes its audio, its mark comes back unplayed; a key goes to the bot", async () => {
    const { bot, log } = politeBot();
    const line = await call(bot);
    await line.clock.advance(1_500);
    await talk(line, 400);
    await line.clock.advance(500);
    const heard = line.sim.driver.heard(line.caller);
    expect(heard).toHaveLength(1);
    expect(heard[0]!.flushed).toBe(true);
    expect(heard[0]!.frames).toBeLessThan(150); // 5 s were sent; the caller heard under 3 s of it
    expect(log.told).toContainEqual({ type: 'mark', name: 'speech', played: false });
    expect(log.told.some((m) => m.type === 'interrupted')).toBe(false); // the bot decided, not ringflow
    line.sim.driver.pressDigits(line.caller, '5');
    await line.clock.advance(1_000);
    expect(log.told).toContainEqual({ type: 'key', digit: '5' });
    expect(line.ended()).toMatchObject({ how: 'done', interruptions: '1' });
    expect(JSON.parse(String(line.ended()?.data))).toEqual({ key: '5' });
    expect(line.metrics.interruptions.get()).toBe(1);
  });

  it("ringflow's barge-in when asked (bargeIn: true): the caller talks over the bot, its audio is flushed and it is told; an end key ends the step", async () => {
    const { bot, log } = talkerBot();
    const line = await call(bot, 'bargeIn: true\nendKeys: "0"');
    await line.clock.advance(1_500);
    await talk(line, 400);
    await line.clock.advance(500);
    expect(line.sim.driver.heard(line.caller).map((h) => h.flushed)).toEqual([true]);
    expect(log.told.filter((m) => m.type === 'interrupted')).toHaveLength(1);
    line.sim.driver.pressDigits(line.caller, '0');
    await line.clock.advance(1_000);
    expect(log.told.some((m) => m.type === 'key')).toBe(false);
    expect(log.told).toContainEqual({ type: 'hangup', reason: 'key' });
    expect(line.ended()).toMatchObject({ how: 'key', interruptions: '1' });
  });

  it('without bargeIn the caller talking over the bot changes nothing: the bot is heard to the end', async () => {
    const { bot } = talkerBot();
    const line = await call(bot, 'callerTimeout: 3s');
    await line.clock.advance(1_500);
    await talk(line, 400);
    await line.clock.advance(6_000);
    const heard = line.sim.driver.heard(line.caller);
    expect(heard.map((h) => [h.frames, h.flushed])).toEqual([[250, false]]);
  });

  it('a bot that stays silent after the caller spoke ends the step with botSilent', async () => {
    const { bot, log } = talkerBot();
    const line = await call(bot, 'botTimeout: 2s');
    await line.clock.advance(6_000); // the bot's 5 s of tone
    await talk(line, 600);
    await line.clock.advance(3_000);
    expect(line.ended()).toMatchObject({ how: 'botSilent', turns: '1' });
    expect(log.told).toContainEqual({ type: 'hangup', reason: 'botSilent' });
  });

  it('a bot that breaks the protocol (say is the text relay) ends the step with failed, saying so', async () => {
    const line = await call((c) =>
      c.onMessage((m) => m.type === 'setup' && c.send({ type: 'say' } as never)),
    );
    await line.clock.advance(1_000);
    expect(line.ended()).toMatchObject({ how: 'failed' });
    expect(String(line.ended()?.message)).toMatch(/say, a word of the text relay/);
    expect(await mediaChannelsLeft(line.sim)).toBe(0);
  });

  it('odd bytes of audio from the bot end the step with failed', async () => {
    const line = await call((c) =>
      c.onMessage((m) => m.type === 'setup' && c.sendAudio(new Uint8Array(641))),
    );
    await line.clock.advance(1_000);
    expect(line.ended()).toMatchObject({ how: 'failed' });
    expect(String(line.ended()?.message)).toMatch(/whole samples/);
  });
});

describe('agent step, protocol audio: a bot that floods', () => {
  it('more than 60 s of audio ahead of the caller ends the step with failed', async () => {
    const second = new Uint8Array(32_000);
    second.fill(1);
    const line = await call((c) =>
      c.onMessage((m) => {
        if (m.type === 'setup') for (let i = 0; i < 61; i++) c.sendAudio(second);
      }),
    );
    await line.clock.advance(1_000);
    expect(line.ended()).toMatchObject({ how: 'failed' });
    expect(String(line.ended()?.message)).toMatch(/more than 60 s of audio ahead/);
  });
});
