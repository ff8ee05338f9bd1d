import { VirtualClock } from '@ringflow/client';
import { type CallEvent, FakeAriServer } from '@ringflow/runtime/testing';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { createIvrMachine } from '../../examples/ivr-machine/ivrMachine.ts';
import { expectNothingLeft, farEnd, inProcessApp } from './harness.ts';

const ivr = createIvrMachine({
  agentEndpoint: 'PJSIP/agent',
  operator: { context: 'ivr-exits', extension: 's', label: 'operator' },
});

const summary = (requests: { method: string; path: string }[]) =>
  requests
    .filter((r) => !r.path.startsWith('/api-docs') && r.path !== '/asterisk/ping')
    .map((r) => `${r.method} ${r.path}`);

describe('IVR machine on the simulator (in process)', () => {
  it('no choice: answer, prompt, menu timeout, voicemail, user event, goodbye, hang up', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock, endpoints: ['PJSIP/alice'] });
    const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
      apps: ['ivr'],
      call: ivr,
    });
    await app.start();
    const seen: string[] = [];
    app.calls$.subscribe((session) => {
      queueMicrotask(() => session.call?.events$.subscribe((e: CallEvent) => seen.push(e.type)));
    });
    // The caller: a channel entering the application.
    await farEnd(clock, simulator).channels.originate({
      endpoint: 'PJSIP/alice',
      app: 'ivr',
      channelId: 'alice-1',
    });
    await clock.advance(60_000);
    expect(summary(requests)).toEqual([
      'POST /channels/alice-1/answer',
      'POST /channels/alice-1/play/playback-1',
      'POST /channels/alice-1/record',
      'POST /events/user/VoicemailLeft',
      'POST /channels/alice-1/play/playback-3',
      'DELETE /channels/alice-1',
    ]);
    const record = requests.find((r) => r.path.endsWith('/record'));
    expect(record?.query).toMatchObject({
      name: 'recording-2',
      format: 'wav',
      maxDurationSeconds: '3',
      beep: 'true',
    });
    const user = requests.find((r) => r.path === '/events/user/VoicemailLeft');
    expect(user?.query).toMatchObject({ application: 'ivr', source: 'channel:alice-1' });
    expect(user?.body).toEqual({ variables: { recording: 'recording-2' } });
    expect(seen).toEqual(
      expect.arrayContaining(['PlaybackFinished', 'RecordingFinished', 'ChannelUserevent', 'StasisEnd']),
    );
    expectNothingLeft(app);
    expect(app.metrics.summary()).toMatchObject({ callsStarted: 1, callsEnded: 1, activeCalls: 0 });
    await app.stop();
  });
});

describe('IVR machine on the fake server', () => {
  it('option 1 with barge-in: the prompt stops, two calls are bridged, agent hangs up, goodbye', async () => {
    const clock = new VirtualClock();
    const server = new FakeAriServer(clock);
    const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server }], { apps: ['ivr'], call: ivr });
    await app.start();
    server.placeCall('caller-1', 'ivr');
    await clock.advance(200);
    server.pressDigit('caller-1', '1');
    await clock.advance(1000);
    expect(server.bridges.get('bridge-3')).toEqual(new Set(['caller-1', 'channel-2']));
    server.hangupCall('channel-2');
    await clock.advance(5000);
    expect(summary(requests)).toEqual([
      'POST /channels/caller-1/answer',
      'POST /channels/caller-1/play/playback-1',
      'DELETE /playbacks/playback-1',
      'POST /channels',
      'POST /bridges',
      'POST /bridges/bridge-3/addChannel',
      'POST /channels/caller-1/play/playback-4',
      'DELETE /channels/caller-1',
      'DELETE /bridges/bridge-3',
    ]);
    expect(requests.find((r) => r.path === '/channels')?.query).toMatchObject({
      endpoint: 'PJSIP/agent',
      app: 'ivr',
      channelId: 'channel-2',
    });
    expectNothingLeft(app);
    await app.stop();
  });

  it('option 2: user event, then continue at the operator label', async () => {
    const clock = new VirtualClock();
    const server = new FakeAriServer(clock);
    const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server }], { apps: ['ivr'], call: ivr });
    await app.start();
    server.placeCall('caller-2', 'ivr');
    await clock.advance(1500);
    server.pressDigit('caller-2', '2');
    await clock.advance(1000);
    expect(summary(requests)).toEqual([
      'POST /channels/caller-2/answer',
      'POST /channels/caller-2/play/playback-1',
      'POST /events/user/OperatorRequested',
      'POST /channels/caller-2/continue',
    ]);
    expect(requests.at(-1)?.query).toEqual({ context: 'ivr-exits', extension: 's', label: 'operator' });
    expect(app.metrics.callsEnded.get({ outcome: 'completed' })).toBe(1);
    expectNothingLeft(app);
    await app.stop();
  });
});
