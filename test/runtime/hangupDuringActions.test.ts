import { VirtualClock } from '@ringflow/client';
import { type CallHandle, type CallInput, callActors, type InProcessServer } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { eventGate, expectNothingLeft, farEnd, inProcessApp } from './harness.ts';

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
    for (const when of ['as its request arrives', 'after 50 ms'] as const) {
      it(`${name}, the caller hangs up ${when}`, async () => {
        const clock = new VirtualClock();
        // Dialled phones ring until the call ends; prompts last long enough to be interrupted.
        const simulator = createSimulator({
          clock,
          endpoints: { 'PJSIP/never-answers': 'noAnswer' },
          sounds: { extraSounds: [{ id: 'long', durationMs: 10_000 }] },
        });
        await farEnd(clock, simulator).bridges.create({ bridgeId: 'room' });
        const callerHangsUp = () => {
          if (simulator.hasChannel('c1')) simulator.driver.hangup('c1');
        };
        // The caller hangs up just before the server handles the action's first request: the
        // request meets a 404 (a gone channel) or a channel on its way out.
        let armed = when === 'as its request arrives';
        const server: InProcessServer = {
          handle: (request) => {
            if (
              armed &&
              !/^\/(asterisk|core)\/ping$/.test(request.path) &&
              !request.path.startsWith('/api-docs')
            ) {
              armed = false;
              callerHangsUp();
            }
            return simulator.handle(request);
          },
          connectEvents: (request, deliver) => simulator.connectEvents(request, deliver),
        };
        const { app } = inProcessApp(clock, [{ name: 'pbx', server }], {
          apps: ['app'],
          call: machineInvoking(name),
        });
        await app.start();
        simulator.driver.placeCall({ app: 'app', channelId: 'c1' });
        if (when === 'after 50 ms') {
          await clock.advance(50);
          callerHangsUp();
        }
        await clock.advance(120_000);
        expect(app.metrics.callsEnded.sum({ status: 'failed' })).toBe(0);
        expect(app.metrics.summary()).toMatchObject({ callsStarted: 1, callsEnded: 1 });
        expectNothingLeft(app);
        // Legs and snoops the call created are hung up with it.
        expect(simulator.channelCount).toBe(0);
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
    const simulator = createSimulator({ clock });
    const gate = eventGate(simulator);
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
    // The caller hangs up while the answer is on its way: the answer meets a 404 before the
    // application hears of the hangup (its StasisEnd is held back until then).
    const hangUpFirst: InProcessServer = {
      handle: (request) => {
        if (request.path === '/channels/c1/answer') {
          gate.hold();
          simulator.driver.hangup('c1');
        }
        return gate.server.handle(request);
      },
      connectEvents: (request, deliver) => gate.server.connectEvents(request, deliver),
    };
    const { app } = inProcessApp(clock, [{ name: 'pbx', server: hangUpFirst }], {
      apps: ['app'],
      call: machine,
    });
    await app.start();
    simulator.driver.placeCall({ app: 'app', channelId: 'c1' });
    await clock.advance(10);
    expect(seen).toEqual(['call.gone channels.answer']);
    expect(app.counters().activeSessions).toBe(1);
    gate.release();
    await clock.advance(1000);
    expect(app.metrics.restErrors.get({ operation: 'channels.answer', status: 404 })).toBe(1);
    expect(app.metrics.callsEnded.sum({ status: 'hungUp', by: 'caller' })).toBe(1);
    expectNothingLeft(app);
    await app.stop();
    expect(unhandled).toEqual([]);
  });
});
