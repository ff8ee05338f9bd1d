import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import { httpFailure } from '../httpFailure.ts';
import { isEvent, originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/**
 * Reference scenario 07: bridges created both ways, channels added and removed, playbacks queued
 * one after the other, an explicit video source set and cleared, the bridge destroyed.
 */
export const bridgeScenario: Scenario = {
  name: 'bridge: create (both id forms), add/remove, queued playbacks, video source, destroy',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a, b } = await originateLocalPair(s, log, 'a', 'b');
    const br = s.id('br1');
    const failedCreate = {
      status: 500,
      message: "Unable to create bridge. Possible duplicate bridge id '(null)'",
    };
    expect(await s.send('POST', '/bridges', { type: 'bogus' })).toMatchObject(failedCreate);
    expect(await s.send('POST', '/bridges', { type: 'mixing,holding' })).toMatchObject(failedCreate);

    expect(
      await s.rest.bridges.create({ type: 'mixing', bridgeId: br, name: 'oracle-bridge' }),
    ).toMatchObject({
      id: br,
      technology: 'simple_bridge',
      bridge_type: 'mixing',
      bridge_class: 'stasis',
      creator: 'Stasis',
      name: 'oracle-bridge',
      channels: [],
    });
    const taken = { status: 409, message: `Bridge with id '${br}' already exists` };
    expect(await httpFailure(s.rest.bridge(br).createWithId({ type: 'mixing', name: 'renamed' }))).toEqual(
      taken,
    );
    expect(await httpFailure(s.rest.bridges.create({ bridgeId: br }))).toEqual(taken);
    const held = s.id('hold');
    expect(await s.rest.bridge(held).createWithId({ type: 'holding', name: 'holder' })).toMatchObject({
      id: held,
      technology: 'holding_bridge',
      bridge_type: 'holding',
      name: 'holder',
    });
    expect((await s.rest.bridges.list()).map((x) => x.id)).toEqual(expect.arrayContaining([br, held]));

    await s.rest.bridge(br).addChannel({ channel: a, role: 'participant' });
    await s.rest.bridge(br).addChannel({ channel: a }); // already in: leaves and enters again
    expect(
      await s.send('POST', `/bridges/${br}/addChannel`, { channel: s.id('no-such-channel') }),
    ).toMatchObject({
      status: 400,
      message: 'Channel not found',
    });
    expect(await s.send('POST', `/bridges/${br}/addChannel`)).toMatchObject({
      status: 400,
      message: 'Missing parameter channel',
    });
    expect(await httpFailure(s.rest.bridge(s.id('no-such-bridge')).addChannel({ channel: b }))).toEqual({
      status: 404,
      message: 'Bridge not found',
    });
    expect(await s.rest.bridge(br).get()).toMatchObject({ channels: [a] });

    // The second playback waits for the first.
    const bpb1 = s.id('bpb1');
    const bpb2 = s.id('bpb2');
    await s.rest.bridge(br).play({ media: 'sound:hello-world', playbackId: bpb1 });
    expect(await s.rest.bridge(br).play({ media: 'sound:beep', playbackId: bpb2 })).toMatchObject({
      target_uri: `bridge:${br}`,
      state: 'queued',
    });
    expect(await s.rest.playback(bpb2).get()).toMatchObject({ state: 'queued' });
    expect(await s.rest.playback(bpb1).get()).toMatchObject({ state: 'playing' });
    await s.nextEvent(log, 'second bridge playback finished', isEvent('PlaybackFinished', bpb2));
    const playbacks = log.events
      .filter((e) => e.type.startsWith('Playback'))
      .map(describeEvent)
      .filter((line, i, all) => all.indexOf(line) === i); // a subscribeAll app hears bridge media twice
    expect(playbacks).toEqual([
      `PlaybackStarted ${bpb1} playing`,
      `PlaybackFinished ${bpb1} done`,
      `PlaybackStarted ${bpb2} playing`,
      `PlaybackFinished ${bpb2} done`,
    ]);

    await s.rest.bridge(br).setVideoSource({ channelId: a });
    expect(await s.rest.bridge(br).get()).toMatchObject({ video_mode: 'single', video_source_id: a });
    await s.rest.bridge(br).clearVideoSource();
    expect(await httpFailure(s.rest.bridge(br).setVideoSource({ channelId: b }))).toEqual({
      status: 422,
      message: 'Channel not in this bridge',
    });
    expect(
      await httpFailure(s.rest.bridge(br).setVideoSource({ channelId: s.id('no-such-channel') })),
    ).toEqual({
      status: 400,
      message: 'Channel not found',
    });
    expect(await httpFailure(s.rest.bridge(s.id('no-such-bridge')).clearVideoSource())).toEqual({
      status: 404,
      message: 'Bridge not found',
    });
    await s.until('two video source changes', () => log.of('BridgeVideoSourceChanged').length === 2);

    await s.rest.bridge(br).removeChannel({ channel: a });
    expect(await httpFailure(s.rest.bridge(br).removeChannel({ channel: a }))).toEqual({
      status: 422,
      message: 'Channel not in this bridge',
    });
    // Moving a channel from one bridge to another.
    await s.rest.bridge(held).addChannel({ channel: b, role: 'announcer' });
    await s.rest.bridge(br).addChannel({ channel: b });
    expect(await s.rest.bridge(br).get()).toMatchObject({ channels: [b] });
    await s.rest.bridge(held).destroy();
    await s.rest.bridge(br).destroy();
    expect(await httpFailure(s.rest.bridge(br).destroy())).toEqual({
      status: 404,
      message: 'Bridge not found',
    });
    await s.nextEvent(log, 'bridge destroyed', isEvent('BridgeDestroyed', br));

    const membership = log.events
      .filter((e) => ['ChannelEnteredBridge', 'ChannelLeftBridge'].includes(e.type))
      .map((e) => `${describeEvent(e)} ${(e as { bridge?: { id: string } }).bridge?.id}`);
    expect(membership).toEqual([
      `ChannelEnteredBridge ${a} ${br}`,
      `ChannelLeftBridge ${a} ${br}`,
      `ChannelEnteredBridge ${a} ${br}`,
      `ChannelLeftBridge ${a} ${br}`,
      `ChannelEnteredBridge ${b} ${held}`,
      `ChannelLeftBridge ${b} ${held}`,
      `ChannelEnteredBridge ${b} ${br}`,
      `ChannelLeftBridge ${b} ${br}`,
    ]);
  },
};
