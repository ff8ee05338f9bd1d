import { VirtualClock } from '@ringflow/client';
import { type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { expectNothingLeft, inProcessApp } from './harness.ts';

/** A short call: answer, a prompt, a digit or a 2 s timeout, hang up. Every kind of resource a call holds. */
const shortCall = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'prompt' },
    },
    prompt: {
      invoke: {
        src: 'play',
        input: ({ context }) => ({ call: context.call, media: 'sound:hi', bargeIn: true }),
        onDone: 'digit',
      },
    },
    digit: {
      invoke: {
        src: 'collectDigits',
        input: ({ context }) => ({ call: context.call, firstDigitTimeoutMs: 2000 }),
        onDone: 'pause',
      },
    },
    pause: { after: { 100: 'leaving' } },
    leaving: { invoke: { src: 'hangup', input: ({ context }) => ({ call: context.call }) } },
  },
});

function start(clock: VirtualClock) {
  const server = createSimulator({ clock, sounds: { extraSounds: [{ id: 'hi', durationMs: 500 }] } });
  const { app } = inProcessApp(clock, [{ name: 'pbx', server }], { apps: ['load'], call: shortCall }, false);
  return { server, app };
}

describe('load and leaks', () => {
  it('1,000 concurrent calls all run to the end and release everything', async () => {
    const clock = new VirtualClock();
    const { server, app } = start(clock);
    await app.start();
    for (let i = 0; i < 1000; i++) server.driver.placeCall({ app: 'load', channelId: `c${i}` });
    await clock.advance(100);
    expect(app.counters().activeSessions).toBe(1000);
    expect(app.metrics.summary().activeCalls).toBe(1000);
    // Half of the callers press a digit during the prompt.
    for (let i = 0; i < 1000; i += 2) server.driver.pressDigits(`c${i}`, '5');
    await clock.advance(10_000);
    expect(app.metrics.summary()).toMatchObject({ callsStarted: 1000, callsEnded: 1000, activeCalls: 0 });
    expect(app.metrics.callsEnded.sum({ status: 'completed', by: 'flow' })).toBe(1000);
    expect(server.channelCount).toBe(0);
    expectNothingLeft(app);
    await app.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('10,000 sequential calls leave no session, subscription, timer, route or request behind', async () => {
    const clock = new VirtualClock();
    const { server, app } = start(clock);
    await app.start();
    for (let i = 0; i < 10_000; i++) {
      server.driver.placeCall({ app: 'load', channelId: `s${i}` });
      await clock.advance(3_000);
    }
    expect(app.metrics.summary()).toMatchObject({ callsStarted: 10_000, callsEnded: 10_000, activeCalls: 0 });
    expect(app.metrics.callsEnded.sum({ status: 'completed', by: 'flow' })).toBe(10_000);
    expectNothingLeft(app);
    await app.stop();
    expect(clock.pendingTimers).toBe(0);
  }, 120_000);
});
