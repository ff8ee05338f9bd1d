import { type StreamEvent, VirtualClock } from '@ringflow/client';
import {
  type CallEnded,
  type InProcessServer,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import { createSimulator, type Simulator } from '@ringflow/simulator';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createConferenceApp } from './createConferenceApp.ts';

interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
}

/** The simulator, with every request it receives and every event it sends written down. */
function watched(sim: Simulator, requests: SeenRequest[], events: StreamEvent[]): InProcessServer {
  return {
    handle: (request) => {
      requests.push({ method: request.method, path: request.path, query: { ...request.query } });
      return sim.handle(request);
    },
    connectEvents: (request, deliver) =>
      sim.connectEvents(request, (event) => {
        events.push(event as StreamEvent);
        deliver(event);
      }),
  };
}

/** A conference application on an in-process simulator, in virtual time. */
async function conferenceOnSimulator(apps = 'conference') {
  const clock = new VirtualClock();
  const sim = createSimulator({ clock });
  const requests: SeenRequest[] = [];
  const events: StreamEvent[] = [];
  const server = watched(sim, requests, events);
  let n = 0;
  const { app, rooms } = createConferenceApp({
    servers: [
      {
        url: 'http://simulator/ari',
        username: 'u',
        password: 'p',
        restTransport: inProcessRestTransport(server),
        eventTransport: inProcessEventTransport(server),
        eventStream: { pingIntervalMs: 0 },
      },
    ],
    apps,
    clock,
    ids: () => String(++n),
    logger: pino({ level: 'silent' }),
  });
  const ended: CallEnded[] = [];
  app.callEnded$.subscribe((c) => ended.push(c));
  await app.start();
  const said = (method: string, path: RegExp) =>
    requests.filter((r) => r.method === method && path.test(r.path));
  const seen = (type: string) => events.filter((e) => e.type === type);
  return { clock, sim, app, rooms, requests, events, ended, said, seen };
}

describe('conference example', () => {
  it('runs a room for three callers: one bridge, talkers on video, moderator keys, recording, closing', async () => {
    const { clock, sim, app, rooms, events, ended, said, seen } = await conferenceOnSimulator();
    const { driver } = sim;

    for (const caller of ['alice', 'bob', 'carol']) {
      driver.placeCall({ app: 'conference', args: ['standup'], channelId: caller, from: caller });
      await clock.advance(10);
    }
    // Join prompts (a few seconds each) and the entry tones on the bridge.
    await clock.advance(10_000);

    const created = said('POST', /^\/bridges$/);
    expect(created).toHaveLength(1);
    expect(created[0]!.query).toMatchObject({ name: 'standup', type: 'mixing' });
    const bridgeId = created[0]!.query.bridgeId!;
    expect(bridgeId).toBeTruthy();
    for (const caller of ['alice', 'bob', 'carol']) {
      expect(said('POST', /^\/channels\/\w+\/answer$/).map((r) => r.path)).toContain(
        `/channels/${caller}/answer`,
      );
      expect(said('POST', /\/variable$/).filter((r) => r.path === `/channels/${caller}/variable`)).toEqual([
        expect.objectContaining({ query: expect.objectContaining({ variable: 'TALK_DETECT(set)' }) }),
      ]);
    }
    expect(said('POST', /\/addChannel$/).map((r) => r.query.channel)).toEqual(['alice', 'bob', 'carol']);
    expect(said('POST', new RegExp(`^/bridges/${bridgeId}/play/`)).map((r) => r.query.media)).toEqual([
      'sound:beep',
      'sound:beep',
      'sound:beep',
    ]);
    expect(seen('ChannelEnteredBridge').map((e) => (e as { channel: { id: string } }).channel.id)).toEqual([
      'alice',
      'bob',
      'carol',
    ]);

    // Whoever starts talking gets the video.
    driver.startTalking('bob');
    await clock.advance(10);
    driver.stopTalking('bob');
    driver.startTalking('carol');
    await clock.advance(10);
    driver.stopTalking('carol');
    expect(said('POST', /\/videoSource\//).map((r) => r.path)).toEqual([
      `/bridges/${bridgeId}/videoSource/bob`,
      `/bridges/${bridgeId}/videoSource/carol`,
    ]);
    const sources = () =>
      seen('BridgeVideoSourceChanged').map(
        (e) => (e as { bridge: { video_source_id?: string } }).bridge.video_source_id ?? 'talk detection',
      );
    expect(sources()).toEqual(['bob', 'carol']);

    // Bob's keys do nothing; alice (the first caller) moderates: # gives the video back to the
    // server's talk detection, and talking then changes nothing until she presses # again.
    driver.pressDigits('bob', '#*');
    await clock.advance(500);
    driver.pressDigits('alice', '#');
    await clock.advance(500);
    expect(said('DELETE', /\/videoSource$/).map((r) => r.path)).toEqual([`/bridges/${bridgeId}/videoSource`]);
    driver.startTalking('bob');
    await clock.advance(10);
    driver.stopTalking('bob');
    expect(sources()).toEqual(['bob', 'carol', 'talk detection']);
    driver.pressDigits('alice', '#');
    await clock.advance(500);
    driver.startTalking('bob');
    await clock.advance(10);
    driver.stopTalking('bob');
    expect(sources()).toEqual(['bob', 'carol', 'talk detection', 'bob']);
    expect(said('POST', /\/record$/)).toEqual([]);

    // * starts and stops a recording of the bridge.
    driver.pressDigits('alice', '*');
    await clock.advance(5_000);
    const records = said('POST', new RegExp(`^/bridges/${bridgeId}/record$`));
    expect(records).toHaveLength(1);
    const first = records[0]!.query.name!;
    expect(first).toMatch(/^conference-standup-/);
    expect(
      seen('RecordingStarted').map((e) => (e as { recording: { name: string } }).recording.name),
    ).toEqual([first]);
    expect(rooms.list()).toEqual([
      expect.objectContaining({ name: 'standup', bridgeId, moderator: 'alice', recording: first }),
    ]);
    driver.pressDigits('alice', '*');
    await clock.advance(500);
    expect(said('POST', /^\/recordings\/live\/.+\/stop$/).map((r) => r.path)).toEqual([
      `/recordings/live/${first}/stop`,
    ]);
    expect(
      seen('RecordingFinished').map((e) => (e as { recording: { name: string } }).recording.name),
    ).toEqual([first]);

    // Recording again; the moderator leaves and bob (there longest) takes over.
    driver.pressDigits('alice', '*');
    await clock.advance(1_000);
    const second = said('POST', /\/record$/)[1]!.query.name!;
    expect(second).not.toBe(first);
    driver.hangup('alice');
    await clock.advance(100);
    driver.pressDigits('bob', '#');
    await clock.advance(500);
    expect(said('DELETE', /\/videoSource$/)).toHaveLength(2);

    // The last two leave: the recording is stopped, then the bridge destroyed.
    driver.hangup('bob');
    await clock.advance(100);
    expect(said('DELETE', /^\/bridges\/[^/]+$/)).toEqual([]);
    driver.hangup('carol');
    await clock.advance(1_000);
    expect(said('POST', /^\/recordings\/live\/.+\/stop$/).map((r) => r.path)).toEqual([
      `/recordings/live/${first}/stop`,
      `/recordings/live/${second}/stop`,
    ]);
    expect(
      seen('RecordingFinished').map((e) => (e as { recording: { name: string } }).recording.name),
    ).toEqual([first, second]);
    expect(said('DELETE', /^\/bridges\/[^/]+$/).map((r) => r.path)).toEqual([`/bridges/${bridgeId}`]);
    expect(seen('BridgeDestroyed')).toHaveLength(1);
    // Stopped, not cut off by the bridge going away.
    expect(seen('RecordingFailed')).toEqual([]);
    const order = events.map((e) => e.type);
    expect(order.lastIndexOf('RecordingFinished')).toBeLessThan(order.indexOf('BridgeDestroyed'));

    expect(ended.map((e) => [e.callId, e.machineStatus, e.output])).toEqual([
      ['alice', 'done', { room: 'standup', moderator: true, ending: 'gone' }],
      ['bob', 'done', { room: 'standup', moderator: false, ending: 'gone' }],
      ['carol', 'done', { room: 'standup', moderator: false, ending: 'gone' }],
    ]);
    expect(rooms.size).toBe(0);
    expect(app.counters()).toEqual({
      activeSessions: 0,
      bridgeSessions: 0,
      subscriptions: 0,
      timers: 0,
      pendingRequests: 0,
      routes: 0,
      digitWaiters: 0,
    });
    await app.stop();
    sim.close();
  });

  it('keeps rooms apart, names them by the dialled number through the dialplan, and opens a new bridge after one closes', async () => {
    // The shipped dialplan sends every inbound call to ringflow-demo with the dialled number.
    const { clock, sim, app, rooms, said } = await conferenceOnSimulator('ringflow-demo');
    const { driver } = sim;
    driver.placeCall({ channelId: 'a1', to: '700' });
    driver.placeCall({ channelId: 'b1', to: '800' });
    driver.placeCall({ channelId: 'a2', to: '700' });
    await clock.advance(10_000);
    expect(said('POST', /^\/bridges$/).map((r) => r.query.name)).toEqual(['700', '800']);
    expect(rooms.list().map((r) => [r.name, r.members, r.moderator])).toEqual([
      ['700', ['a1', 'a2'], 'a1'],
      ['800', ['b1'], 'b1'],
    ]);
    for (const id of ['a1', 'a2', 'b1']) driver.hangup(id);
    await clock.advance(1_000);
    expect(said('DELETE', /^\/bridges\/[^/]+$/)).toHaveLength(2);
    expect(rooms.size).toBe(0);

    driver.placeCall({ channelId: 'a3', to: '700' });
    await clock.advance(10_000);
    expect(said('POST', /^\/bridges$/).map((r) => r.query.name)).toEqual(['700', '800', '700']);
    expect(rooms.list()).toEqual([expect.objectContaining({ name: '700', members: ['a3'] })]);
    driver.hangup('a3');
    await clock.advance(1_000);
    expect(app.counters()).toMatchObject({
      activeSessions: 0,
      bridgeSessions: 0,
      routes: 0,
      pendingRequests: 0,
    });
    await app.stop();
    sim.close();
  });
});
