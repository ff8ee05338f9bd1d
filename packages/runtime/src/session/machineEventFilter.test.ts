import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { machineEventFilter } from './machineEventFilter.ts';

describe('machineEventFilter', () => {
  it('accepts the event types some state handles, at any depth, and no other', () => {
    const machine = createMachine({
      initial: 'a',
      on: { 'call.gone': '.done' },
      states: {
        a: {
          initial: 'inner',
          states: { inner: { on: { ChannelDtmfReceived: '#deep' } } },
          on: { PlaybackFinished: 'done' },
        },
        deep: { id: 'deep', on: { 'flow.effect.*': 'done' } },
        done: { type: 'final' },
      },
    });
    const accepts = machineEventFilter(machine);
    expect(accepts('ChannelDtmfReceived')).toBe(true);
    expect(accepts('PlaybackFinished')).toBe(true);
    expect(accepts('call.gone')).toBe(true);
    expect(accepts('flow.effect.done.e1')).toBe(true);
    expect(accepts('ChannelStateChange')).toBe(false);
    expect(accepts('PlaybackStarted')).toBe(false);
    expect(machineEventFilter(machine)).toBe(accepts); // computed once per machine
  });

  it('accepts everything when a state has a wildcard transition', () => {
    const machine = createMachine({ on: { '*': { actions: () => {} } } });
    expect(machineEventFilter(machine)('AnythingAtAll')).toBe(true);
  });
});
