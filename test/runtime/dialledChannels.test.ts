import { VirtualClock } from '@ringflow/client';
import { type CallEnded, type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { expectNothingLeft, inProcessApp } from './harness.ts';

/**
 * The caller's machine dials an agent (a leg it owns) and also originates a callback to another
 * phone with an id it does not own (handed off). The callback runs the same machine in its own
 * session, where it only answers and waits.
 */
const machine = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'choosing',
  states: {
    choosing: {
      always: [{ guard: ({ context }) => context.call.args[0] === 'callback', target: 'waiting' }],
      after: { 0: 'dialling' },
    },
    dialling: {
      invoke: {
        src: 'dial',
        input: ({ context }) => ({ call: context.call, endpoint: 'PJSIP/agent' }),
        onDone: 'handingOff',
      },
    },
    handingOff: {
      invoke: {
        src: 'request',
        input: ({ context }) => ({
          call: context.call,
          operation: 'channels.originate',
          params: {
            endpoint: 'PJSIP/customer',
            app: context.call.app,
            appArgs: 'callback',
            channelId: 'callback-1',
          },
        }),
        onDone: 'waiting',
      },
    },
    waiting: {},
  },
});

describe('channels a call creates', () => {
  it('a dialled leg stays in the caller session; a channel it hands off gets a session of its own', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({
      clock,
      endpoints: ['PJSIP/agent', 'PJSIP/customer'],
      answerOutboundAfterMs: 500,
    });
    const { app } = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
      apps: ['calls'],
      call: machine,
    });
    const started: string[] = [];
    const ended: CallEnded[] = [];
    app.calls$.subscribe((s) => started.push(`${s.channelId} ${s.direction}`));
    app.callEnded$.subscribe((e) => ended.push(e));
    await app.start();
    simulator.driver.placeCall({ app: 'calls', channelId: 'caller' });
    await clock.advance(2000);
    // The agent's leg (channel-1) entered the application inside the caller's session.
    expect(started).toEqual(['caller inbound', 'callback-1 inbound']);
    expect(app.call('caller')?.ownedChannels()).toEqual(['caller', 'channel-1']);
    expect(app.call('callback-1')?.call?.args).toEqual(['callback']);
    // The caller hangs up: their leg goes with them; the handed-off call lives on.
    simulator.driver.hangup('caller');
    await clock.advance(100);
    expect(simulator.hasChannel('channel-1')).toBe(false);
    expect(app.activeCalls().map((s) => s.channelId)).toEqual(['callback-1']);
    simulator.driver.hangup('callback-1');
    await clock.advance(100);
    expect(ended.map((e) => `${e.callId} ${e.outcome} ${JSON.stringify(e.snapshotValue)}`)).toEqual([
      'caller completed "waiting"',
      'callback-1 completed "waiting"',
    ]);
    expectNothingLeft(app);
    await app.stop();
  });
});
