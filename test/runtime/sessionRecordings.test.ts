import { HttpError, VirtualClock } from '@ringflow/client';
import { type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { expectNothingLeft, farEnd, inProcessApp } from './harness.ts';

/**
 * A call that joins a room someone else owns and starts recording the room; it never stops the
 * recording itself (it has no handler for the caller leaving).
 */
interface RecordingCall {
  /** The machine stops the recording itself before the caller leaves. */
  readonly stopItFirst?: boolean;
  /**
   * The machine starts the recording with the call's client (as a dsl flow does), not through
   * `call.request`: the session learns it started from its RecordingStarted only.
   */
  readonly viaClient?: boolean;
}

function recordsTheRoom(recordingName: string, options: RecordingCall = {}) {
  return setup({
    types: { input: {} as CallInput, context: {} as { call: CallHandle } },
    actors: {
      ...callActors,
      startRecording: fromPromise(async ({ input }: { input: { call: CallHandle } }) => {
        input.call.own('recording', recordingName);
        if (options.viaClient)
          await input.call.client.bridge('room').record({ name: recordingName, format: 'wav' });
        else
          await input.call.request('bridges.record', {
            bridgeId: 'room',
            name: recordingName,
            format: 'wav',
          });
      }),
      stopRecording: fromPromise(async ({ input }: { input: { call: CallHandle } }) => {
        await input.call.request('recordings.stop', { recordingName });
      }),
    },
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
          input: ({ context }) => ({ call: context.call, bridgeId: 'room' }),
          onDone: 'recording',
        },
      },
      recording: {
        invoke: {
          src: 'startRecording',
          input: ({ context }) => ({ call: context.call }),
          onDone: options.stopItFirst ? 'stopping' : 'listening',
        },
      },
      stopping: {
        invoke: {
          src: 'stopRecording',
          input: ({ context }) => ({ call: context.call }),
          onDone: 'listening',
        },
      },
      listening: {},
    },
  });
}

async function callThatHangsUpWhileRecording(options: RecordingCall = {}) {
  const clock = new VirtualClock();
  const server = createSimulator({ clock });
  const far = farEnd(clock, server);
  await far.bridges.create({ bridgeId: 'room' });
  const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server }], {
    apps: ['rec'],
    call: recordsTheRoom('room-notes', options),
  });
  await app.start();
  server.driver.placeCall({ app: 'rec', channelId: 'c1', from: '100' });
  await clock.advance(10);
  await clock.advance(3000);
  server.driver.hangup('c1');
  await clock.runUntilIdle();
  return { app, far, requests };
}

describe('a call that ends with a recording it started still running', () => {
  it('stops the bridge recording as part of its cleanup and the recording is kept', async () => {
    const { app, far, requests } = await callThatHangsUpWhileRecording();
    const stops = requests.filter(
      (r) => r.method === 'POST' && r.path === '/recordings/live/room-notes/stop',
    );
    expect(stops).toHaveLength(1);
    const live = await far.recordings.getLive({ recordingName: 'room-notes' }).catch((e: unknown) => e);
    expect(live).toBeInstanceOf(HttpError);
    expect((live as HttpError).status).toBe(404);
    const stored = await far.recordings.getStored({ recordingName: 'room-notes' });
    expect(stored).toMatchObject({ name: 'room-notes', format: 'wav' });
    expectNothingLeft(app);
    await app.stop();
  });

  it("stops a recording started with the call's client, known from its RecordingStarted", async () => {
    const { app, far, requests } = await callThatHangsUpWhileRecording({ viaClient: true });
    const stops = requests.filter(
      (r) => r.method === 'POST' && r.path === '/recordings/live/room-notes/stop',
    );
    expect(stops).toHaveLength(1);
    expect(await far.recordings.getStored({ recordingName: 'room-notes' })).toMatchObject({
      name: 'room-notes',
    });
    expectNothingLeft(app);
    await app.stop();
  });

  it('sends no stop for a recording that had already finished', async () => {
    const { app, requests } = await callThatHangsUpWhileRecording({ stopItFirst: true });
    const stops = requests.filter(
      (r) => r.method === 'POST' && r.path === '/recordings/live/room-notes/stop',
    );
    expect(stops).toHaveLength(1); // the machine's own stop, none at the end
    expectNothingLeft(app);
    await app.stop();
  });
});
