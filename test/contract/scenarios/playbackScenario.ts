import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import { httpFailure } from '../httpFailure.ts';
import { isEvent, originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/** Reference scenario 03: sounds end by themselves, tones only when stopped; control ops and errors. */
export const playbackScenario: Scenario = {
  name: 'play a sound and a tone: control operations, playlists, failures and errors',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a } = await originateLocalPair(s, log, 'a', 'b');
    const sequence = (id: string) =>
      log.events.filter((e) => e.type.startsWith('Playback') && isEvent(e.type, id)(e)).map(describeEvent);

    const hello = s.id('pb-hello');
    expect(await s.rest.channel(a).play({ media: 'sound:hello-world', playbackId: hello })).toEqual({
      id: hello,
      media_uri: 'sound:hello-world',
      target_uri: `channel:${a}`,
      language: 'en',
      state: 'queued',
    });
    await s.nextEvent(log, 'hello-world started', isEvent('PlaybackStarted', hello));
    expect(await s.rest.playback(hello).get()).toMatchObject({ state: 'playing' });
    await s.nextEvent(log, 'hello-world finished', isEvent('PlaybackFinished', hello));
    expect(await httpFailure(s.rest.playback(hello).get())).toEqual({
      status: 404,
      message: 'Playback not found',
    });
    expect(sequence(hello)).toEqual([`PlaybackStarted ${hello} playing`, `PlaybackFinished ${hello} done`]);

    const tone = s.id('pb-tone');
    await s.rest.channel(a).playWithId({ playbackId: tone, media: 'tone:ring;tonezone=us' });
    await s.nextEvent(log, 'tone started', isEvent('PlaybackStarted', tone));
    await s.rest.playback(tone).control({ operation: 'pause' });
    expect(await s.rest.playback(tone).get()).toMatchObject({ state: 'paused' });
    await s.rest.playback(tone).control({ operation: 'unpause' });
    expect(await s.send('POST', `/playbacks/${tone}/control`, { operation: 'bogus' })).toMatchObject({
      status: 400,
      message: 'Invalid operation bogus',
    });
    expect(await s.send('POST', `/playbacks/${tone}/control`)).toMatchObject({
      status: 400,
      message: 'Missing operation',
    });
    await s.rest.playback(tone).control({ operation: 'forward' });
    expect(await s.rest.playback(tone).get()).toMatchObject({ state: 'playing' });
    await s.rest.playback(tone).stop();
    await s.nextEvent(log, 'tone finished', isEvent('PlaybackFinished', tone));
    expect(await httpFailure(s.rest.playback(tone).stop())).toEqual({
      status: 404,
      message: 'Playback not found',
    });
    expect(await httpFailure(s.rest.playback(tone).control({ operation: 'pause' }))).toEqual({
      status: 404,
      message: 'Playback not found',
    });
    // Unpausing a tone reports it as started again; only the explicit stop finishes it.
    expect(sequence(tone)).toEqual([
      `PlaybackStarted ${tone} playing`,
      `PlaybackStarted ${tone} playing`,
      `PlaybackFinished ${tone} done`,
    ]);

    const list = s.id('pb-list');
    expect(await s.rest.channel(a).play({ media: 'number:42,sound:beep', playbackId: list })).toMatchObject({
      media_uri: 'number:42',
      next_media_uri: 'sound:beep',
      state: 'queued',
    });
    await s.nextEvent(log, 'playlist finished', isEvent('PlaybackFinished', list));
    expect(sequence(list)).toEqual([
      `PlaybackStarted ${list} playing`,
      `PlaybackContinuing ${list} continuing`,
      `PlaybackStarted ${list} playing`,
      `PlaybackFinished ${list} done`,
    ]);

    const missing = s.id('pb-missing');
    await s.rest.channel(a).play({ media: 'sound:no-such-file', playbackId: missing });
    await s.nextEvent(log, 'missing file finished', isEvent('PlaybackFinished', missing));
    expect(sequence(missing)).toEqual([
      `PlaybackStarted ${missing} playing`,
      `PlaybackFinished ${missing} failed`,
    ]);

    // An unknown scheme starts, then the playback is gone at once (the real server never finishes it).
    const bogus = s.id('pb-bogus');
    expect(await s.rest.channel(a).play({ media: 'bogus:thing', playbackId: bogus })).toMatchObject({
      state: 'queued',
    });
    await s.nextEvent(log, 'unknown scheme started', isEvent('PlaybackStarted', bogus));
    expect(await httpFailure(s.rest.playback(bogus).get())).toEqual({
      status: 404,
      message: 'Playback not found',
    });

    const queueFailed = { status: 500, message: 'Failed to queue media for playback' };
    expect(await s.send('POST', `/channels/${a}/play`)).toMatchObject(queueFailed);
    expect(await s.send('POST', `/channels/${a}/play`, { media: '' })).toMatchObject(queueFailed);
    expect(await httpFailure(s.rest.channel(s.id('no-such-channel')).play({ media: 'sound:beep' }))).toEqual({
      status: 404,
      message: 'Channel not found',
    });
  },
};
