import { afterEach, describe, expect, it } from 'vitest';
import { SteppedTime } from './SteppedTime.ts';

describe('SteppedTime', () => {
  let time: SteppedTime;
  afterEach(() => time.close());

  it('holds the events while paused and gives one per step, in order; resuming gives the rest', () => {
    time = new SteppedTime();
    const given: string[] = [];
    const deliver = time.gate((event) => given.push(String(event.type)));
    deliver({ type: 'StasisStart' });
    expect(given).toEqual(['StasisStart']);
    time.pause();
    deliver({ type: 'ChannelDtmfReceived', digit: '1' });
    deliver({ type: 'PlaybackFinished' });
    deliver({ type: 'ChannelHangupRequest' });
    expect(given).toEqual(['StasisStart']);
    expect(time.state().waiting).toBe(3);
    expect(time.step()).toEqual({ kind: 'event', event: 'ChannelDtmfReceived 1' });
    expect(given).toEqual(['StasisStart', 'ChannelDtmfReceived']);
    time.resume();
    expect(given).toEqual(['StasisStart', 'ChannelDtmfReceived', 'PlaybackFinished', 'ChannelHangupRequest']);
    expect(time.state()).toMatchObject({ paused: false, waiting: 0 });
  });

  it('paused, time stands still; a step with no event waiting moves it to the next timer and gives what it raised', () => {
    time = new SteppedTime();
    const given: string[] = [];
    const deliver = time.gate((event) => given.push(`${String(event.type)} ${String(event.digit)}`));
    time.pause();
    const start = time.clock.now();
    const fired: number[] = [];
    time.clock.setTimeout(() => fired.push(time.clock.now() - start), 5000);
    // A key's tone ends after 100 ms: its event is raised then.
    time.clock.setTimeout(() => deliver({ type: 'ChannelDtmfReceived', digit: '1' }), 100);
    expect(time.clock.now()).toBe(start);
    expect(time.state().nextDue).toBe(start + 100);
    expect(time.step()).toEqual({ kind: 'event', event: 'ChannelDtmfReceived 1' });
    expect(given).toEqual(['ChannelDtmfReceived 1']);
    expect(time.clock.now()).toBe(start + 100);
    expect(fired).toEqual([]);
    expect(time.step()).toEqual({ kind: 'timer', at: start + 5000 });
    expect(fired).toEqual([5000]);
    expect(time.step()).toEqual({ kind: 'nothing' });
  });

  it('running, steps do nothing and timers fire on the wall clock', async () => {
    time = new SteppedTime();
    expect(time.step()).toEqual({ kind: 'nothing' });
    const fired = new Promise<number>((resolve) => time.clock.setTimeout(() => resolve(time.clock.now()), 5));
    expect(await fired).toBeGreaterThanOrEqual(time.clock.now() - 1000);
  });
});
