import { VirtualClock } from '@ringflow/client';
import { type CallEvent, type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { expectNothingLeft, inProcessApp } from './harness.ts';

const menu = setup({
  types: {
    input: {} as CallInput,
    context: {} as { call: CallHandle; digits: string; prompt: string },
    events: {} as CallEvent,
  },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call, digits: '', prompt: '' }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'greeting' },
    },
    greeting: {
      invoke: {
        src: 'play',
        input: ({ context }) => ({ call: context.call, media: 'sound:welcome', bargeIn: true }),
        onDone: { target: 'collecting', actions: assign({ prompt: ({ event }) => event.output.outcome }) },
      },
    },
    collecting: {
      invoke: {
        src: 'collectDigits',
        input: ({ context }) => ({ call: context.call, maxDigits: 3, firstDigitTimeoutMs: 4000 }),
        onDone: { target: 'announcing', actions: assign({ digits: ({ event }) => event.output.digits }) },
      },
    },
    announcing: {
      invoke: {
        src: 'userEvent',
        input: ({ context }) => ({
          call: context.call,
          name: 'Chosen',
          variables: { digits: context.digits, prompt: context.prompt },
        }),
        onDone: 'leaving',
      },
    },
    leaving: { invoke: { src: 'hangup', input: ({ context }) => ({ call: context.call }) } },
  },
});

function setUp() {
  const clock = new VirtualClock();
  const server = createSimulator({ clock });
  const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server }], { apps: ['ivr'], call: menu });
  return { clock, server, requests, app };
}

describe('Application on the simulator', () => {
  it('connects to its servers on start(), not when made: making one must not take the events of a running one', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock });
    let connections = 0;
    const counted = {
      handle: simulator.handle.bind(simulator),
      connectEvents: (...args: Parameters<typeof simulator.connectEvents>) => {
        connections++;
        return simulator.connectEvents(...args);
      },
    };
    const { app } = inProcessApp(clock, [{ name: 'pbx', server: counted }], { apps: ['ivr'], call: menu });
    await clock.advance(1000);
    expect(connections).toBe(0);
    await app.start();
    expect(connections).toBe(1);
    await app.stop();
  });

  it('runs a call machine: answer, play with barge-in, collect digits, user event, hang up', async () => {
    const { clock, server, requests, app } = setUp();
    await app.start();
    const seen: CallEvent[] = [];
    server.driver.placeCall({ app: 'ivr', args: ['x'], channelId: 'c1' });
    await clock.advance(0);
    app.call('c1')!.call!.events$.subscribe((e) => seen.push(e));
    await clock.advance(300);
    server.driver.pressDigits('c1', '4');
    await clock.advance(300);
    server.driver.pressDigits('c1', '2#');
    await clock.runUntilIdle();
    const paths = requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('POST /channels/c1/answer');
    expect(paths).toContain('POST /channels/c1/play/playback-1');
    expect(paths).toContain('DELETE /playbacks/playback-1');
    expect(paths).toContain('POST /events/user/Chosen');
    expect(paths).toContain('DELETE /channels/c1');
    const user = requests.find((r) => r.path === '/events/user/Chosen');
    expect(user?.body).toEqual({ variables: { digits: '42', prompt: 'interrupted' } });
    expect(seen.map((e) => e.type)).toContain('ChannelUserevent');
    expectNothingLeft(app);
    expect(app.metrics.summary()).toMatchObject({ callsStarted: 1, callsEnded: 1, activeCalls: 0 });
    await app.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('turns a hangup in the middle of a prompt into an ordinary end of call', async () => {
    const { clock, server, app } = setUp();
    await app.start();
    server.driver.placeCall({ app: 'ivr', channelId: 'c2' });
    await clock.advance(200);
    server.driver.hangup('c2');
    await clock.runUntilIdle();
    expect(app.counters().activeSessions).toBe(0);
    expect(app.counters().routes).toBe(0);
    expect(app.metrics.callsEnded.sum({ status: 'hungUp', by: 'caller' })).toBe(1);
    await app.stop();
  });
});
