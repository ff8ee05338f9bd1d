import { VirtualClock } from '@ringflow/client';
import type { CallEnded } from '@ringflow/runtime';
import { createSimulator, type PublishedEvent } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { createIvrMachine } from '../../examples/ivr-machine/ivrMachine.ts';
import { expectNothingLeft, farEnd, inProcessApp, type SeenEvent, type SeenRequest } from './harness.ts';

/** The application the shipped dialplan sends inbound calls to (`Stasis(${DEMO_APP},${EXTEN})`). */
const APP = 'ringflow-demo';

const ivr = createIvrMachine({
  agentEndpoint: 'PJSIP/agent',
  // The shipped dialplan's exit: `same => n(operator),Playback(transfer&pls-hold-while-try)`.
  operator: { context: 'ivr-exits', extension: 's', label: 'operator' },
});

/** The requests the application made for calls (not its start-up checks). */
const summary = (requests: readonly SeenRequest[]) =>
  requests
    .filter((r) => !r.path.startsWith('/api-docs') && !/^\/(asterisk|core)\/ping$/.test(r.path))
    .map((r) => `${r.method} ${r.path}`);

/** The events the application received about one resource, by type. */
const eventsAbout = (events: readonly SeenEvent[], id: string) =>
  events.filter((e) => e.about === id).map((e) => e.type);

/**
 * The IVR on the in-process simulator, with the shipped dialplan: callers are placed by the
 * simulator's driver (the call runs `from-callers` and enters the application with the dialled
 * number), press digits and hang up in virtual time; the agent's phone answers after a second.
 */
function setUp() {
  const clock = new VirtualClock();
  const simulator = createSimulator({ clock, endpoints: ['PJSIP/agent'], answerOutboundAfterMs: 1000 });
  const { app, requests, events } = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
    apps: [APP],
    call: ivr,
  });
  const world: PublishedEvent[] = [];
  simulator.driver.onEvent((event) => world.push(event));
  const ended: CallEnded[] = [];
  app.callEnded$.subscribe((report) => ended.push(report));
  const call = (channelId: string) =>
    simulator.driver.placeCall({ channelId, from: '5551234', to: '100', endpoint: 'PJSIP/caller' });
  return { clock, simulator, app, requests, events, world, ended, call };
}

describe('IVR machine on the simulator (in process, driven by the simulator driver)', () => {
  it('no choice: answer, prompt, menu timeout, voicemail, user event, goodbye, hang up', async () => {
    const { clock, app, requests, events, ended, call } = setUp();
    await app.start();
    call('caller-1');
    await clock.advance(60_000);
    expect(summary(requests)).toEqual([
      'POST /channels/caller-1/answer',
      'POST /channels/caller-1/play/playback-1',
      'POST /channels/caller-1/record',
      'POST /events/user/VoicemailLeft',
      'POST /channels/caller-1/play/playback-3',
      'DELETE /channels/caller-1',
    ]);
    const record = requests.find((r) => r.path.endsWith('/record'));
    expect(record?.query).toMatchObject({
      name: 'recording-2',
      format: 'wav',
      maxDurationSeconds: '3',
      beep: 'true',
      terminateOn: '#',
    });
    const user = requests.find((r) => r.path === '/events/user/VoicemailLeft');
    expect(user?.query).toMatchObject({ application: APP, source: 'channel:caller-1' });
    expect(user?.body).toEqual({ variables: { recording: 'recording-2' } });
    // The prompt played to its end, the recording ran to its limit, the user event came back.
    expect(eventsAbout(events, 'playback-1')).toEqual(['PlaybackStarted', 'PlaybackFinished']);
    expect(eventsAbout(events, 'recording-2')).toEqual(['RecordingStarted', 'RecordingFinished']);
    const started = events.find((e) => e.type === 'StasisStart');
    expect(started?.event).toMatchObject({ args: ['100'], channel: { id: 'caller-1' } });
    expect(eventsAbout(events, 'caller-1')).toEqual(
      expect.arrayContaining(['StasisStart', 'ChannelUserevent', 'StasisEnd', 'ChannelDestroyed']),
    );
    // The hangup's reply came before its events, as on a real server: the machine reached its
    // final state on the reply, and the session ended on StasisEnd. The soft hangup request's
    // `cause` is not the call's (32 there is the soft-hangup flag), and ChannelDestroyed came after.
    expect(ended).toEqual([
      expect.objectContaining({
        callId: 'caller-1',
        app: APP,
        outcome: 'completed',
        machineStatus: 'done',
        snapshotValue: 'done',
        output: { choice: '', recording: 'recording-2' },
      }),
    ]);
    expect(ended[0]?.cause).toBeUndefined();
    expectNothingLeft(app);
    expect(app.metrics.summary()).toMatchObject({ callsStarted: 1, callsEnded: 1, activeCalls: 0 });
    await app.stop();
  });

  it('option 1 pressed during the prompt: barge-in, agent dialled and bridged, agent hangs up, goodbye', async () => {
    const { clock, simulator, app, requests, events, world, ended, call } = setUp();
    await app.start();
    call('caller-1');
    await clock.advance(500);
    simulator.driver.pressDigits('caller-1', '1');
    await clock.advance(2000);
    // Both calls are in the bridge the caller's session created.
    const bridge = await farEnd(clock, simulator).bridge('bridge-3').get();
    expect([...bridge.channels].sort()).toEqual(['caller-1', 'channel-2']);
    expect(app.activeCalls().map((s) => s.channelId)).toEqual(['caller-1']);
    simulator.driver.hangup('channel-2');
    await clock.advance(10_000);
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
      app: APP,
      channelId: 'channel-2',
    });
    expect(requests.find((r) => r.path.endsWith('/addChannel'))?.query).toMatchObject({
      channel: 'caller-1,channel-2',
    });
    // The digit stopped the prompt; the agent's leg entered the application and the bridge.
    expect(eventsAbout(events, 'playback-1')).toEqual(['PlaybackStarted', 'PlaybackFinished']);
    expect(events.find((e) => e.type === 'ChannelDtmfReceived')?.event).toMatchObject({
      digit: '1',
      channel: { id: 'caller-1' },
    });
    expect(eventsAbout(events, 'channel-2')).toEqual(
      expect.arrayContaining(['StasisStart', 'ChannelEnteredBridge', 'ChannelLeftBridge', 'StasisEnd']),
    );
    expect(eventsAbout(events, 'playback-4')).toEqual(['PlaybackStarted', 'PlaybackFinished']);
    // The dialled agent stayed in the caller's session: one call, not two.
    expect(app.metrics.summary()).toMatchObject({ callsStarted: 1, callsEnded: 1 });
    expect(world.filter((e) => e.type === 'BridgeDestroyed')).toHaveLength(1);
    expect(ended).toMatchObject([
      { callId: 'caller-1', machineStatus: 'done', snapshotValue: 'done', output: { choice: '1' } },
    ]);
    expect(simulator.channelCount).toBe(0);
    expectNothingLeft(app);
    await app.stop();
  });

  it('option 2: user event, then continue at the operator label of the dialplan', async () => {
    const { clock, simulator, app, requests, events, world, ended, call } = setUp();
    await app.start();
    call('caller-2');
    await clock.advance(1500);
    simulator.driver.pressDigits('caller-2', '2');
    await clock.advance(1000);
    expect(summary(requests)).toEqual([
      'POST /channels/caller-2/answer',
      'POST /channels/caller-2/play/playback-1',
      'POST /events/user/OperatorRequested',
      'POST /channels/caller-2/continue',
    ]);
    expect(requests.at(-1)?.query).toEqual({ context: 'ivr-exits', extension: 's', label: 'operator' });
    expect(requests.find((r) => r.path === '/events/user/OperatorRequested')?.body).toEqual({
      variables: { caller: 'caller-2' },
    });
    expect(events.find((e) => e.type === 'ChannelUserevent')?.event).toMatchObject({
      eventname: 'OperatorRequested',
      userevent: { caller: 'caller-2' },
    });
    expect(eventsAbout(events, 'caller-2')).toContain('StasisEnd');
    expect(app.metrics.callsEnded.sum({ status: 'continued', by: 'dialplan' })).toBe(1);
    // The continue's reply came after its StasisEnd: the machine still got to `done`.
    expect(ended).toMatchObject([
      {
        callId: 'caller-2',
        status: 'continued',
        by: 'dialplan',
        outcome: 'completed',
        machineStatus: 'done',
        output: { choice: '2' },
      },
    ]);
    // Back in the dialplan at the label: the announcement plays, then the call ends there.
    await clock.advance(30_000);
    const dialplan = world
      .filter((e) => e.type === 'ChannelDialplan' && (e.channel as { id: string }).id === 'caller-2')
      .map((e) => `${(e.channel as { dialplan: { context: string } }).dialplan.context} ${e.dialplan_app}`);
    expect(dialplan.slice(-3)).toEqual(['ivr-exits Playback', 'ivr-exits Wait', 'ivr-exits Hangup']);
    expect(simulator.hasChannel('caller-2')).toBe(false);
    expectNothingLeft(app);
    await app.stop();
  });

  it('the caller hangs up while the menu waits: the call ends, nothing is sent after, nothing is left', async () => {
    const { clock, simulator, app, requests, ended, call } = setUp();
    await app.start();
    call('caller-3');
    await clock.advance(2000);
    simulator.driver.hangup('caller-3', 17);
    await clock.advance(10_000);
    expect(summary(requests)).toEqual([
      'POST /channels/caller-3/answer',
      'POST /channels/caller-3/play/playback-1',
    ]);
    expect(app.metrics.callsEnded.sum({ status: 'hungUp', by: 'caller' })).toBe(1);
    // The machine saw the StasisEnd before it was stopped, and ended in `gone`.
    expect(ended).toMatchObject([
      {
        callId: 'caller-3',
        status: 'hungUp',
        by: 'caller',
        outcome: 'completed',
        machineStatus: 'done',
        snapshotValue: 'gone',
        output: { choice: '' },
        cause: 17,
      },
    ]);
    expectNothingLeft(app);
    await app.stop();
  });
});
