import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import type { StepDocument } from '../model/flowSchema.ts';
import { type FlowTestCall, testFlow } from '@ringflow/testing';

/** The simulator's beep before a recording starts (the core sound `beep`). */
const BEEP_MS = 424;
/** A stored WAV: 44-byte header, then 8 kHz 16-bit mono (16,000 bytes a second). */
const WAV_HEADER = 44;
const WAV_BYTES_PER_SECOND = 16_000;

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

/**
 * A flow that answers, runs one record step (`as: msg`), then reports the result in a user event
 * `Recorded` (or `RecordFailed` with the failure's status) and hangs up.
 */
function recordFlow(record: Record<string, unknown>, before: StepDocument[] = []) {
  return defineFlow({
    name: 'recorder',
    start: 'rec',
    states: {
      rec: {
        steps: [
          'answer',
          ...before,
          { record: { ...record, as: 'msg', on: { failed: 'failed' } } } as StepDocument,
          {
            userEvent: {
              name: 'Recorded',
              variables: {
                outcome: { expr: 'vars.msg.outcome' },
                name: { expr: 'vars.msg.name' },
                duration: { expr: 'vars.msg.duration' },
                talking: {
                  expr: "has(vars.msg.talkingDuration) ? string(vars.msg.talkingDuration) : 'none'",
                },
                silence: {
                  expr: "has(vars.msg.silenceDuration) ? string(vars.msg.silenceDuration) : 'none'",
                },
              },
            },
          },
          'hangup',
        ],
      },
      failed: {
        steps: [
          {
            userEvent: {
              name: 'RecordFailed',
              variables: {
                status: { expr: 'string(vars.msg.status)' },
                message: { expr: 'vars.msg.message' },
              },
            },
          },
          'hangup',
        ],
      },
    },
  });
}

/** Virtual ms from the call's start at which the flow's application saw an event of this type. */
function seenAt(c: FlowTestCall, type: string): number[] {
  return c.events(type).map((e) => e.at);
}

async function storedSeconds(c: FlowTestCall, name: string): Promise<number> {
  const reply = await c.simulator.handle({
    method: 'GET',
    path: `/recordings/stored/${encodeURIComponent(name)}/file`,
    query: {},
  });
  expect(reply.status, `stored recording ${name}`).toBe(200);
  return ((reply.binary?.data.length ?? 0) - WAV_HEADER) / WAV_BYTES_PER_SECOND;
}

describe('record on the simulator', () => {
  it('records with the defaults: beep, # ends it, overwrite; the result carries name and duration', async () => {
    call = await testFlow(recordFlow({ name: 'voicemail/42' }));
    const record = call.expectAction(
      {
        operation: 'channels.record',
        params: {
          channelId: 'c1',
          name: 'voicemail/42',
          format: 'wav',
          beep: true,
          terminateOn: '#',
          ifExists: 'overwrite',
          maxDurationSeconds: 0,
          maxSilenceSeconds: 0,
        },
      },
      { times: 1 },
    );
    expect(record[0]?.status).toBe(201);
    // RecordingStarted comes at once, as on the real server (reference traces, scenario 06): the
    // beep plays inside the recording, and the audio (the duration) starts after it.
    await call.wait('1s');
    expect(seenAt(call, 'RecordingStarted')).toEqual([0]);
    await call.talk('3s');
    await call.press('1'); // not the terminator: the recording goes on
    expect(call.events('RecordingFinished')).toEqual([]);
    await call.wait('1s');
    await call.press('#');
    call.expectUserEvent('Recorded', {
      outcome: 'recorded',
      name: 'voicemail/42',
      // 1 s + 3 s + 0.2 s + 1 s + the # arriving, less the beep: 4.9 s, whole seconds.
      duration: '4',
      talking: 'none',
      silence: 'none',
    });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '6s' });
    // 5.3 s from the record request to the #, the beep not recorded.
    expect(await storedSeconds(call, 'voicemail/42')).toBeCloseTo(5.3 - BEEP_MS / 1000, 3);
  });

  it('without a name, records under a fresh id and reports it', async () => {
    call = await testFlow(recordFlow({ beep: false, maxDuration: '2s' }));
    await call.expectEnd({ status: 'completed', by: 'flow', within: '3s' });
    const [record] = call.expectAction({ operation: 'channels.record', params: { beep: false } });
    const name = String(record?.params.name);
    expect(name).not.toBe('');
    call.expectUserEvent('Recorded', { outcome: 'recorded', name, duration: '2' });
  });

  it.each([
    { terminateOn: '*', ignored: '#', stops: '*' },
    { terminateOn: 'any', ignored: undefined, stops: '7' },
    { terminateOn: 'none', ignored: '#*1', stops: undefined },
  ] as const)('terminateOn $terminateOn', async ({ terminateOn, ignored, stops }) => {
    call = await testFlow(recordFlow({ name: 'keys', beep: false, terminateOn, maxDuration: '10s' }));
    call.expectAction({ operation: 'channels.record', params: { terminateOn } });
    await call.wait('2s');
    if (ignored !== undefined) {
      await call.press(ignored);
      await call.wait('1s');
      expect(call.events('RecordingFinished'), `${ignored} must not end the recording`).toEqual([]);
    }
    if (stops !== undefined) {
      await call.press(stops);
      expect(seenAt(call, 'RecordingFinished')).toHaveLength(1);
      call.expectUserEvent('Recorded', { outcome: 'recorded', name: 'keys' });
      const end = await call.expectEnd({ status: 'completed', within: '5s' });
      expect(end.at).toBeLessThan(5_000);
    } else {
      // No key ends it: the 10 s limit does.
      const end = await call.expectEnd({ status: 'completed', within: '11s' });
      expect(end.at).toBe(10_000);
      call.expectUserEvent('Recorded', { duration: '10' });
    }
  });

  it('maxDuration ends the recording on time and is sent in whole seconds', async () => {
    call = await testFlow(recordFlow({ name: 'short', beep: false, maxDuration: '5s' }));
    call.expectAction({ operation: 'channels.record', params: { maxDurationSeconds: 5, beep: false } });
    await call.talk('2s');
    await call.wait('2900ms');
    expect(call.events('RecordingFinished')).toEqual([]);
    await call.wait('100ms');
    expect(seenAt(call, 'RecordingFinished')).toEqual([5_000]);
    call.expectUserEvent('Recorded', { outcome: 'recorded', name: 'short', duration: '5' });
  });

  it('maxSilence ends after that much silence and reports talking and silence durations', async () => {
    call = await testFlow(recordFlow({ name: 'quiet', beep: false, maxSilence: '2s', maxDuration: '1m' }));
    call.expectAction({
      operation: 'channels.record',
      params: { maxSilenceSeconds: 2, maxDurationSeconds: 60 },
    });
    await call.wait('1500ms'); // silent, but less than the limit
    await call.talk('3s');
    await call.wait('1900ms');
    expect(call.events('RecordingFinished')).toEqual([]);
    await call.wait('100ms');
    // 1.5 s silence + 3 s talk + 2 s silence.
    expect(seenAt(call, 'RecordingFinished')).toEqual([6_500]);
    call.expectUserEvent('Recorded', {
      outcome: 'recorded',
      name: 'quiet',
      duration: '6',
      talking: '3',
      silence: '3',
    });
    const end = call.end() ?? (await call.expectEnd({ within: '7s' }));
    expect(end.vars?.msg).toMatchObject({
      outcome: 'recorded',
      step: 'record',
      state: 'rec',
      name: 'quiet',
      duration: 6,
      talkingDuration: 3,
      silenceDuration: 3,
    });
  });

  it('ifExists fail: a name already stored makes the step fail with the 409, nothing is recorded', async () => {
    call = await testFlow(
      recordFlow({ name: 'greeting', beep: false, ifExists: 'fail' }, [
        { record: { name: 'greeting', beep: false, maxDuration: '1s' } } as StepDocument,
      ]),
    );
    await call.expectEnd({ status: 'completed', within: '3s' });
    call.expectAction({ operation: 'channels.record', params: { ifExists: 'fail' } });
    call.expectVisited('failed');
    call.expectUserEvent('RecordFailed', { status: '409', message: /already exists/ });
    expect(await storedSeconds(call, 'greeting')).toBe(1);
  });

  it('ifExists overwrite replaces the stored recording; append adds to it', async () => {
    for (const [ifExists, seconds] of [
      ['overwrite', 2],
      ['append', 3],
    ] as const) {
      call = await testFlow(
        recordFlow({ name: 'memo', beep: false, ifExists, maxDuration: '2s' }, [
          { record: { name: 'memo', beep: false, maxDuration: '1s' } } as StepDocument,
        ]),
      );
      await call.expectEnd({ status: 'completed', within: '5s' });
      call.expectUserEvent('Recorded', { outcome: 'recorded', name: 'memo', duration: '2' });
      expect(await storedSeconds(call, 'memo'), ifExists).toBe(seconds);
      await call.close();
    }
  });

  it('a name from an expression; the caller hanging up mid-recording still stores it and runs the hangup handler', async () => {
    const flow = defineFlow({
      name: 'vm',
      start: 'rec',
      on: { hangup: 'left' },
      states: {
        rec: {
          steps: [
            'answer',
            { record: { name: { expr: "'vm/' + call.caller.number" }, beep: false, as: 'msg' } },
            'hangup',
          ],
        },
        left: { final: true, output: { recording: { expr: 'vars.msg.name' } } },
      },
    });
    call = await testFlow(flow, { caller: '5550100' });
    call.expectAction({ operation: 'channels.record', params: { name: 'vm/5550100' } });
    await call.talk('2s');
    await call.hangUp();
    const end = await call.expectEnd({ status: 'hungUp', by: 'caller' });
    expect(end.at).toBe(2_000);
    call.expectVisited('left');
    expect(await storedSeconds(call, 'vm/5550100')).toBe(2);
  });
});
