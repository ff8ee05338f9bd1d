import { VirtualClock } from '@ringflow/client';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { callActors } from '../actions/index.ts';
import type { CallEvent, CallHandle, CallInput } from '../call/CallHandle.ts';
import { inProcessEventTransport } from '../inProcess/inProcessEventTransport.ts';
import { inProcessRestTransport } from '../inProcess/inProcessRestTransport.ts';
import { FakeAriServer } from '../testing/FakeAriServer.ts';
import { createApplication } from './createApplication.ts';

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
  const server = new FakeAriServer(clock);
  const events = inProcessEventTransport(server);
  let n = 0;
  const app = createApplication({
    servers: [
      {
        url: 'http://fake/ari',
        username: 'u',
        password: 'p',
        restTransport: inProcessRestTransport(server),
        eventTransport: events,
        eventStream: { pingIntervalMs: 0 },
      },
    ],
    apps: ['ivr'],
    call: menu,
    clock,
    ids: () => String(++n),
    logger: pino({ level: 'silent' }),
  });
  return { clock, server, events, app };
}

describe('Application on a fake server', () => {
  it('runs a call machine: answer, play with barge-in, collect digits, user event, hang up', async () => {
    const { clock, server, app } = setUp();
    await app.start();
    const seen: CallEvent[] = [];
    server.placeCall('c1', 'ivr', ['x']);
    await clock.advance(0);
    app.call('c1')!.call!.events$.subscribe((e) => seen.push(e));
    await clock.advance(300);
    server.pressDigit('c1', '4');
    await clock.advance(10);
    server.pressDigit('c1', '2');
    server.pressDigit('c1', '#');
    await clock.runUntilIdle();
    const paths = server.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('POST /channels/c1/answer');
    expect(paths).toContain('POST /channels/c1/play/playback-1');
    expect(paths).toContain('DELETE /playbacks/playback-1');
    expect(paths).toContain('POST /events/user/Chosen');
    expect(paths).toContain('DELETE /channels/c1');
    const user = server.requests.find((r) => r.path === '/events/user/Chosen');
    expect(user?.body).toEqual({ variables: { digits: '42', prompt: 'interrupted' } });
    expect(seen.map((e) => e.type)).toContain('ChannelUserevent');
    expect(app.counters()).toEqual({
      activeSessions: 0,
      bridgeSessions: 0,
      subscriptions: 0,
      timers: 0,
      pendingRequests: 0,
      routes: 0,
      digitWaiters: 0,
    });
    expect(app.metrics.summary()).toMatchObject({ callsStarted: 1, callsEnded: 1, activeCalls: 0 });
    await app.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('turns a hangup in the middle of a prompt into an ordinary end of call', async () => {
    const { clock, server, app } = setUp();
    await app.start();
    server.placeCall('c2', 'ivr');
    await clock.advance(200);
    server.hangupCall('c2');
    await clock.runUntilIdle();
    expect(app.counters().activeSessions).toBe(0);
    expect(app.counters().routes).toBe(0);
    expect(app.metrics.callsEnded.get({ outcome: 'completed' })).toBe(1);
    await app.stop();
  });
});
