import { VirtualClock } from '@ringflow/client';
import { describe, expect, it, vi } from 'vitest';
import { assign, createMachine } from 'xstate';
import type { CallHandle } from '../call/CallHandle.ts';
import type { CallRecord } from '../snapshot/CallRecord.ts';
import { CallMachine, type CallMachineOptions } from './CallMachine.ts';
import { TrackingClock } from './TrackingClock.ts';

/** Counts its `press` events; `hangup` ends it with the count as its output. */
const counter = createMachine({
  context: { presses: 0 },
  initial: 'listening',
  states: {
    listening: {
      on: {
        press: { actions: assign({ presses: ({ context }) => context.presses + 1 }) },
        hangup: 'done',
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ presses: context.presses }),
});

// The machine above never reads its input: the handle only names the call.
const handle = { channelId: 'call-1' } as CallHandle;

function options(extra: Partial<CallMachineOptions> = {}): CallMachineOptions {
  return {
    clock: new TrackingClock(new VirtualClock()),
    logger: () => {},
    onDone: () => {},
    onError: () => {},
    ...extra,
  };
}

describe('CallMachine', () => {
  it('gives the machine only the events some state of it handles, and only while it runs', () => {
    const onDone = vi.fn();
    const machine = new CallMachine(counter, handle, options({ onDone }));
    const send = vi.spyOn(machine.actor, 'send');
    machine.start();
    machine.tell({ type: 'ChannelStateChange' });
    machine.tell({ type: 'press' });
    expect(send.mock.calls.map(([event]) => event.type)).toEqual(['press']);
    machine.tell({ type: 'hangup' });
    expect(onDone).toHaveBeenCalledOnce();
    expect(machine.active).toBe(false);
    machine.tell({ type: 'press' }); // done with the call: not sent
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('says where the machine was when it is stopped', () => {
    const running = new CallMachine(counter, handle, options());
    running.start();
    running.tell({ type: 'press' });
    expect(running.stop()).toEqual({ status: 'active', value: 'listening', output: undefined });
    expect(running.active).toBe(false);

    const done = new CallMachine(counter, handle, options());
    done.start();
    done.tell({ type: 'hangup' });
    expect(done.stop()).toEqual({ status: 'done', value: 'done', output: { presses: 0 } });
  });

  it('goes on from a record written by another machine of the call, and tells each step', () => {
    const first = new CallMachine(counter, handle, options());
    first.start();
    first.tell({ type: 'press' });
    first.tell({ type: 'press' });
    // A record as the store gives it back: JSON. Only its machine snapshot matters here.
    const record = { machine: JSON.parse(JSON.stringify(first.persisted())) } as CallRecord;
    first.stop();

    const onStep = vi.fn();
    const taken = new CallMachine(counter, handle, options({ record, onStep }));
    taken.start();
    taken.tell({ type: 'press' });
    expect(onStep).toHaveBeenCalled();
    expect(taken.actor.getSnapshot().context).toEqual({ presses: 3 });
  });
});
