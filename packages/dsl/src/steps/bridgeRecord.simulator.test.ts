import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import { type FlowTestCall, testFlow } from '@ringflow/testing';

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

/** A stored WAV: 44-byte header, then 8 kHz 16-bit mono (16,000 bytes a second). */
const WAV_HEADER = 44;
const WAV_BYTES_PER_SECOND = 16_000;

async function storedSeconds(c: FlowTestCall, name: string): Promise<number> {
  const reply = await c.simulator.handle({
    method: 'GET',
    path: `/recordings/stored/${encodeURIComponent(name)}/file`,
    query: {},
  });
  expect(reply.status, `stored recording ${name}`).toBe(200);
  return ((reply.binary?.data.length ?? 0) - WAV_HEADER) / WAV_BYTES_PER_SECOND;
}

/** Joins a room, records it for `talk` seconds (while the flow waits), stops, reports both results. */
function roomFlow(record: Record<string, unknown>, stop: Record<string, unknown> = {}) {
  return defineFlow({
    name: 'room-recorder',
    start: 'room',
    states: {
      room: {
        steps: [
          'answer',
          { conference: { name: 'standup' } },
          { bridgeRecord: { ...record, as: 'rec' } },
          {
            userEvent: {
              name: 'Started',
              variables: { name: { expr: 'vars.rec.name' }, bridge: { expr: 'vars.rec.bridgeId' } },
            },
          },
          { wait: { duration: '5s' } },
          { bridgeRecord: { stop: true, ...stop, as: 'stopped' } },
          { userEvent: { name: 'Stopped', variables: { name: { expr: 'vars.stopped.name' } } } },
          { wait: { duration: '1s' } },
          'hangup',
        ],
      },
    },
  });
}

describe('bridgeRecord on the simulator', () => {
  it('starts a recording of the bridge, goes on while it runs, and stop: true stops it', async () => {
    call = await testFlow(roomFlow({ name: { expr: "'rooms/' + 'standup'" }, maxDuration: '1h' }));
    await call.wait('1s');
    const [record] = call.expectAction(
      {
        operation: 'bridges.record',
        params: {
          bridgeId: 'ringflow-standup',
          name: 'rooms/standup',
          format: 'wav',
          beep: false,
          terminateOn: 'none',
          ifExists: 'fail',
          maxDurationSeconds: 3600,
          maxSilenceSeconds: 0,
        },
      },
      { times: 1 },
    );
    expect(record?.status).toBe(201);
    call.expectUserEvent('Started', { name: 'rooms/standup', bridge: 'ringflow-standup' });
    // The flow went on (its 5 s wait) while the room was recorded; nothing stopped it yet.
    call.expectNoAction('recordings.stop');
    await call.wait('5s');
    const [stop] = call.expectAction(
      { operation: 'recordings.stop', params: { recordingName: 'rooms/standup' } },
      { times: 1 },
    );
    expect(stop?.at).toBe(5_000);
    call.expectUserEvent('Stopped', { name: 'rooms/standup' });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '10s' });
    expect(call.events('RecordingFinished').length).toBe(1);
    expect(await storedSeconds(call, 'rooms/standup')).toBeCloseTo(5, 0);
  });

  it('without a name records under a fresh id; stop by name stops that one', async () => {
    call = await testFlow(roomFlow({ beep: true }, { name: { expr: 'vars.rec.name' } }));
    await call.wait('8s');
    const [record] = call.expectAction({ operation: 'bridges.record', params: { beep: true } });
    const name = String(record?.params.name);
    expect(name).not.toBe('');
    call.expectAction({ operation: 'recordings.stop', params: { recordingName: name } }, { times: 1 });
    call.expectUserEvent('Stopped', { name });
  });

  it('a name already stored fails the step (ifExists: fail), reported with the status', async () => {
    const flow = defineFlow({
      name: 'twice',
      start: 'room',
      vars: { status: '' },
      states: {
        room: {
          steps: [
            'answer',
            { conference: { name: 'standup' } },
            { bridgeRecord: { name: 'minutes' } },
            { bridgeRecord: { stop: true } },
            {
              bridgeRecord: {
                name: 'minutes',
                on: { failed: { goto: 'refused', set: { status: { expr: 'string(event.status)' } } } },
              },
            },
            'hangup',
          ],
        },
        refused: {
          steps: [{ userEvent: { name: 'Refused', variables: { status: { expr: 'vars.status' } } } }],
          next: 'bye',
        },
        bye: { steps: ['hangup'] },
      },
    });
    call = await testFlow(flow);
    await call.expectEnd({ status: 'completed', by: 'flow', within: '5s' });
    call.expectVisited('refused');
    call.expectUserEvent('Refused', { status: '409' });
  });

  it('outside a bridge, or stopping with nothing started, the step fails and says why', async () => {
    const flow = defineFlow({
      name: 'nobridge',
      start: 'a',
      vars: { message: '' },
      states: {
        a: {
          steps: [
            'answer',
            { bridgeRecord: { on: { failed: { goto: 'b', set: { message: { expr: 'event.message' } } } } } },
          ],
          next: 'bye',
        },
        b: {
          steps: [
            { userEvent: { name: 'NoBridge', variables: { message: { expr: 'vars.message' } } } },
            {
              bridgeRecord: {
                stop: true,
                on: { failed: { goto: 'c', set: { message: { expr: 'event.message' } } } },
              },
            },
          ],
          next: 'bye',
        },
        c: {
          steps: [{ userEvent: { name: 'NothingToStop', variables: { message: { expr: 'vars.message' } } } }],
          next: 'bye',
        },
        bye: { steps: ['hangup'] },
      },
    });
    call = await testFlow(flow);
    await call.expectEnd({ status: 'completed', by: 'flow', within: '1s' });
    call.expectUserEvent('NoBridge', { message: /not in a bridge/ });
    call.expectUserEvent('NothingToStop', { message: /started no bridge recording/ });
    call.expectNoAction('bridges.record');
    call.expectNoAction('recordings.stop');
  });
});
