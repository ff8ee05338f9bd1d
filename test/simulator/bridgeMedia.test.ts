import { describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';

describe('bridge media', () => {
  it('records a bridge and plays media into it side by side, as a real server does with its recorder and announcer', async () => {
    const h = createHarness();
    h.connect('app', ['room'], false);
    expect((await h.req('POST', '/bridges', { bridgeId: 'room-1', type: 'mixing' })).status).toBe(200);
    await h.req('POST', '/applications/room/subscription', { eventSource: 'bridge:room-1' });
    const rec = await h.req('POST', '/bridges/room-1/record', { name: 'room-rec', format: 'wav' });
    expect(rec.status).toBe(201);
    // A playback sent while the bridge records starts at once instead of waiting for the recording.
    const play = await h.req('POST', '/bridges/room-1/play', {
      media: 'sound:beep',
      playbackId: 'entry-tone',
    });
    expect(play.status).toBe(201);
    await h.advance(0);
    const playing = await h.req('GET', '/playbacks/entry-tone');
    expect(playing.body).toMatchObject({ state: 'playing', target_uri: 'bridge:room-1' });
    // Two playbacks still queue behind each other on the bridge.
    await h.req('POST', '/bridges/room-1/play', { media: 'sound:hello-world', playbackId: 'second' });
    expect((await h.req('GET', '/playbacks/second')).body).toMatchObject({ state: 'queued' });
    await h.advance(5000);
    expect((await h.req('GET', '/recordings/live/room-rec')).body).toMatchObject({ state: 'recording' });
    expect((await h.req('POST', '/recordings/live/room-rec/stop')).status).toBe(204);
    await h.advance(0);
    const types = (h.events.app ?? []).map((e) => e.type);
    expect(types).toContain('RecordingFinished');
    expect(types.filter((t) => t === 'PlaybackFinished')).toHaveLength(2);
  });

  it('ends a bridge recording still running when the bridge is destroyed, keeping what was recorded', async () => {
    const h = createHarness();
    h.connect('app', ['room'], false);
    await h.req('POST', '/bridges', { bridgeId: 'room-2', type: 'mixing' });
    await h.req('POST', '/applications/room/subscription', { eventSource: 'bridge:room-2' });
    await h.req('POST', '/bridges/room-2/record', { name: 'room-rec-2', format: 'wav' });
    await h.advance(1000);
    expect((await h.req('DELETE', '/bridges/room-2')).status).toBe(204);
    await h.advance(0);
    expect((h.events.app ?? []).map((e) => e.type)).toEqual([
      'RecordingStarted',
      'RecordingFinished',
      'BridgeDestroyed',
    ]);
    expect((await h.req('GET', '/recordings/live/room-rec-2')).status).toBe(404);
    expect((await h.req('GET', '/recordings/stored/room-rec-2')).status).toBe(200);
  });
});
