import { VirtualClock } from '@ringflow/client';
import {
  type AgentServices,
  type AgentSessionResult,
  agentInputOfCall,
  agentMachine,
  type CallInput,
  DEFAULT_AGENT_LIMITS,
  heldMediaLink,
  linkInProcessBot,
  SimulatedSpeechToText,
  SimulatedTextToSpeech,
  wordsInSlin,
} from '@ringflow/runtime';
import { createMediaPipePair, createSimulator } from '@ringflow/simulator';
import { expect, it } from 'vitest';
import { assign, sendTo, setup } from 'xstate';
import { inProcessApp } from './harness.ts';

/**
 * The agent session in a hand-written call machine (no flow language): the machine answers,
 * invokes `agentMachine` with `agentInputOfCall`, forwards it the media channel's StasisStart and
 * the caller's keys, and hangs up with the session's outcome in a channel variable.
 */
it('a hand-written machine runs an agent session: the bot greets, answers the caller, and ends it', async () => {
  const clock = new VirtualClock();
  const sim = createSimulator({ clock });
  const stt = new SimulatedSpeechToText();
  const services: AgentServices = {
    connectBot: async () =>
      linkInProcessBot((c) =>
        c.onMessage((m) => {
          if (m.type === 'setup') c.send({ type: 'say', text: 'Hello there.' });
          if (m.type === 'caller' && m.final) {
            c.send({ type: 'say', text: `You said ${m.text}.` });
            c.send({ type: 'end', result: 'done', data: { heard: m.text } });
          }
        }),
      ),
    connectMedia: async (id) => {
      const accept = sim.media.acceptIncoming(id);
      if (typeof accept !== 'function') throw new Error(`refused ${accept.status}`);
      const { server, app } = createMediaPipePair();
      const link = heldMediaLink(app);
      accept(server);
      return link;
    },
    speechToText: stt,
    textToSpeech: new SimulatedTextToSpeech(),
  };
  const settings = {
    bot: 'greeter',
    protocol: 'text' as const,
    limits: DEFAULT_AGENT_LIMITS,
    endKeys: '',
    keysToBot: true,
    bargeIn: true,
    context: {},
  };
  const machine = setup({
    types: {} as { input: CallInput; context: CallInput & { result?: AgentSessionResult } },
    actors: { agent: agentMachine },
  }).createMachine({
    context: ({ input }) => ({ call: input.call }),
    initial: 'answering',
    states: {
      answering: {
        entry: ({ context }) => void context.call.channel.answer(),
        after: { 100: 'talking' },
      },
      talking: {
        invoke: {
          id: 'agent',
          src: 'agent',
          input: ({ context }) => agentInputOfCall(context.call, services, settings),
          onDone: {
            target: 'done',
            actions: assign({ result: ({ event }) => event.output }),
          },
        },
        on: {
          StasisStart: { actions: sendTo('agent', ({ event }) => event) },
          ChannelDtmfReceived: { actions: sendTo('agent', ({ event }) => event) },
        },
      },
      done: {
        entry: ({ context }) => void context.call.channel.hangup(),
        type: 'final',
      },
    },
  });
  let result: AgentSessionResult | undefined;
  const { app } = inProcessApp(clock, [{ name: 'pbx', server: sim }], {
    apps: ['greeter'],
    call: machine,
  });
  app.calls$.subscribe((session) =>
    queueMicrotask(() =>
      session.machine?.subscribe((s) => {
        const context = s.context as { result?: AgentSessionResult };
        if (context.result) result = context.result;
      }),
    ),
  );
  await app.start();
  const caller = sim.driver.placeCall({ from: '5551234', to: '100', app: 'greeter' });
  await clock.advance(2_000);
  expect(sim.driver.heard(caller).map((h) => wordsInSlin(h.audio))).toEqual(['Hello there.']);
  sim.driver.startTalking(caller);
  await clock.advance(600);
  sim.driver.stopTalking(caller);
  stt.hear('good morning');
  await clock.advance(3_000);
  expect(sim.driver.heard(caller).map((h) => wordsInSlin(h.audio))).toEqual([
    'Hello there.',
    'You said good morning.',
  ]);
  expect(result).toMatchObject({ outcome: 'done', data: { heard: 'good morning' }, turns: 1 });
  await app.stop();
  sim.close();
});
