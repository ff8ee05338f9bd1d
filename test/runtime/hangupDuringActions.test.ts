import { VirtualClock } from '@ringflow/client';
import { type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { FakeAriServer } from '@ringflow/runtime/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { expectNothingLeft, inProcessApp } from './harness.ts';

type ActorName = keyof typeof callActors;

/** Input of each action, with values that keep it busy long enough to be interrupted. */
const inputs: Record<ActorName, (call: CallHandle) => Record<string, unknown>> = {
  request: (call) => ({ call, operation: 'channels.ring', params: { channelId: call.channelId } }),
  answer: (call) => ({ call }),
  hangup: (call) => ({ call }),
  play: (call) => ({ call, media: 'sound:long', bargeIn: true }),
  collectDigits: (call) => ({ call, maxDigits: 4 }),
  record: (call) => ({ call, maxDurationSeconds: 30 }),
  dial: (call) => ({ call, endpoint: 'PJSIP/never-answers' }),
  bridgeWith: (call) => ({ call, endpoint: 'PJSIP/never-answers' }),
  joinBridge: (call) => ({ call, bridgeId: 'room' }),
  snoop: (call) => ({ call, spy: 'both' }),
  continueAt: (call) => ({ call, context: 'default', extension: '100' }),
  userEvent: (call) => ({ call, name: 'Busy', variables: { a: 1 } }),
};

function machineInvoking(name: ActorName) {
  return setup({
    types: { input: {} as CallInput, context: {} as { call: CallHandle } },
    actors: callActors,
  }).createMachine({
    context: ({ input }) => ({ call: input.call }),
    initial: 'acting',
    states: {
      acting: {
        invoke: { src: name, input: ({ context }) => inputs[name](context.call) as never, onDone: 'waiting' },
      },
      waiting: { after: { 60000: 'done' } },
      done: { type: 'final' },
    },
  });
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

describe('the caller hangs up in the middle of every kind of action', () => {
  for (const name of Object.keys(callActors) as ActorName[]) {
    for (const hangUpAfterMs of [0, 50]) {
      it(`${name}, hangup after ${hangUpAfterMs} ms`, async () => {
        const clock = new VirtualClock();
        const server = new FakeAriServer(clock);
        server.answerAfterMs = null;
        server.playbackMs = 10_000;
        server.bridges.set('room', new Set());
        const { app } = inProcessApp(clock, [{ name: 'pbx', server }], {
          apps: ['app'],
          call: machineInvoking(name),
        });
        await app.start();
        server.placeCall('c1', 'app');
        if (hangUpAfterMs === 0) {
          // Hang up as the first request is on its way: it meets a 404.
          await Promise.resolve();
          await Promise.resolve();
        } else {
          await clock.advance(hangUpAfterMs);
        }
        server.hangupCall('c1');
        await clock.advance(120_000);
        expect(app.metrics.callsEnded.get({ outcome: 'failed' })).toBe(0);
        expect(app.metrics.summary()).toMatchObject({ callsStarted: 1, callsEnded: 1 });
        expectNothingLeft(app);
        // Legs and snoops the call created are hung up with it.
        expect([...server.channels.keys()]).toEqual([]);
        await app.stop();
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).toEqual([]);
      });
    }
  }
});

describe('a request that finds the caller gone', () => {
  it('becomes a call.gone event for the machine, not a failure', async () => {
    const clock = new VirtualClock();
    const server = new FakeAriServer(clock);
    const seen: string[] = [];
    const machine = setup({
      types: { input: {} as CallInput, context: {} as { call: CallHandle } },
      actors: callActors,
    }).createMachine({
      context: ({ input }) => ({ call: input.call }),
      initial: 'answering',
      on: {
        'call.gone': {
          actions: ({ event }) => seen.push(`${event.type} ${(event as { operation?: string }).operation}`),
        },
      },
      states: { answering: { invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }) } } },
    });
    const { app } = inProcessApp(clock, [{ name: 'pbx', server }], { apps: ['app'], call: machine });
    await app.start();
    // The caller is gone before the answer arrives; the server's StasisEnd comes later.
    server.placeCall('c1', 'app');
    const channel = server.channels.get('c1')!;
    server.channels.delete('c1');
    await clock.advance(10);
    expect(seen).toEqual(['call.gone channels.answer']);
    expect(app.counters().activeSessions).toBe(1);
    server.channels.set('c1', channel);
    server.hangupCall('c1');
    await clock.advance(1000);
    expect(app.metrics.restErrors.get({ operation: 'channels.answer', status: 404 })).toBe(1);
    expect(app.metrics.callsEnded.get({ outcome: 'completed' })).toBe(1);
    expectNothingLeft(app);
    await app.stop();
    expect(unhandled).toEqual([]);
  });
});
