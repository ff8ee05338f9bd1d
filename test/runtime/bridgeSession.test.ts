import { VirtualClock } from '@ringflow/client';
import { type BridgeContext, type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { expectNothingLeft, farEnd, inProcessApp } from './harness.ts';

describe('bridge sessions (a conference room)', () => {
  it('tracks participants and the playback queue while call sessions join and leave', async () => {
    const clock = new VirtualClock();
    const server = createSimulator({
      clock,
      sounds: {
        extraSounds: [
          { id: 'room-recorded', durationMs: 2000 },
          { id: 'room-alone', durationMs: 2000 },
        ],
      },
    });
    let roomId = '';
    const joinRoom = setup({
      types: { input: {} as CallInput, context: {} as { call: CallHandle } },
      actors: callActors,
    }).createMachine({
      context: ({ input }) => ({ call: input.call }),
      initial: 'answering',
      states: {
        answering: {
          invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'joining' },
        },
        joining: {
          invoke: {
            src: 'joinBridge',
            input: ({ context }) => ({ call: context.call, bridgeId: roomId }),
            onDone: 'inRoom',
          },
        },
        inRoom: {},
      },
    });
    const { app } = inProcessApp(clock, [{ name: 'pbx', server }], { apps: ['conf'], call: joinRoom });
    await app.start();
    const room = await app.createBridge({ name: 'standup' });
    roomId = room.bridgeId;
    const states: BridgeContext[] = [];
    const sub = room.state$.subscribe((s) => states.push(s));
    server.driver.placeCall({ app: 'conf', channelId: 'ann', from: '100' });
    server.driver.placeCall({ app: 'conf', channelId: 'bob', from: '200' });
    await clock.advance(10);
    expect(room.state.participants).toEqual(['ann', 'bob']);
    const first = await room.play('sound:room-recorded');
    const second = await room.play('sound:room-alone');
    await clock.advance(0);
    expect(room.state.playbacks).toEqual([
      { playbackId: first, media: 'sound:room-recorded', state: 'playing' },
      { playbackId: second, media: 'sound:room-alone', state: 'queued' },
    ]);
    await clock.advance(2000);
    expect(room.state.playbacks.map((p) => `${p.playbackId} ${p.state}`)).toEqual([`${second} playing`]);
    await clock.advance(2000);
    expect(room.state.playbacks.map((p) => p.playbackId)).toEqual([]);
    server.driver.hangup('ann');
    await clock.advance(10);
    expect(room.state.participants).toEqual(['bob']);
    expect(states.some((s) => s.participants.length === 2)).toBe(true);
    server.driver.hangup('bob');
    sub.unsubscribe();
    room.destroy();
    await clock.advance(10);
    expect(await farEnd(clock, server).bridges.list()).toEqual([]);
    expectNothingLeft(app);
    await app.stop();
  });
});
