import type { ResourceKind, StreamEvent } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { OwnedResources, type ResourceRoutes } from './OwnedResources.ts';

const PBX = '02:fc:00:00:00:01';

/** Routes kept in a set, to see which resources still send their events to the call. */
function routesSeen(): ResourceRoutes<string> & { readonly routed: Set<string> } {
  const routed = new Set<string>();
  return {
    routed,
    add: (_asteriskId: string, kind: ResourceKind, id: string) => routed.add(`${kind}:${id}`),
    remove: (_asteriskId: string, kind: ResourceKind, id: string) => routed.delete(`${kind}:${id}`),
  };
}

// Only the fields `follow` reads: a whole ARI event would hide what the test is about.
const event = (type: string, fields: object) => ({ type, ...fields }) as unknown as StreamEvent;

function ownedOfOneCall() {
  const routes = routesSeen();
  const owned = new OwnedResources(routes, PBX, 'call-1');
  owned.own('channel', 'call-1', false);
  owned.own('channel', 'dialled-1', true);
  owned.own('playback', 'playback-1', false);
  owned.own('recording', 'recording-1', true);
  owned.own('bridge', 'bridge-1', true);
  return { owned, routes };
}

describe('OwnedResources.follow', () => {
  it('notes a dialled channel that entered the application, and a recording that started', () => {
    const { owned } = ownedOfOneCall();
    expect(owned.follow(event('StasisStart', { channel: { id: 'dialled-1' } }), 'dialled-1')).toBe(false);
    expect(owned.follow(event('RecordingStarted', { recording: { name: 'recording-1' } }), undefined)).toBe(
      false,
    );
    const started = owned.persist().filter((o) => o.started);
    expect(started.map((o) => `${o.kind}:${o.id}`)).toEqual(['channel:dialled-1', 'recording:recording-1']);
  });

  it('lets go of what ended: a dialled channel, a playback, a recording, a bridge; their routes with them', () => {
    const { owned, routes } = ownedOfOneCall();
    expect(owned.follow(event('ChannelDestroyed', { channel: { id: 'dialled-1' } }), 'dialled-1')).toBe(true);
    expect(owned.follow(event('PlaybackFinished', { playback: { id: 'playback-1' } }), undefined)).toBe(true);
    expect(owned.follow(event('RecordingFailed', { recording: { name: 'recording-1' } }), undefined)).toBe(
      true,
    );
    expect(owned.follow(event('BridgeDestroyed', { bridge: { id: 'bridge-1' } }), undefined)).toBe(true);
    expect(owned.list().map((o) => `${o.kind}:${o.id}`)).toEqual(['channel:call-1']);
    expect([...routes.routed]).toEqual(['channel:call-1']);
  });

  it('says false for what it does not own, and for events that end nothing', () => {
    const { owned } = ownedOfOneCall();
    expect(owned.follow(event('PlaybackFinished', { playback: { id: 'someone-elses' } }), undefined)).toBe(
      false,
    );
    expect(owned.follow(event('ChannelStateChange', { channel: { id: 'dialled-1' } }), 'dialled-1')).toBe(
      false,
    );
    expect(owned.follow(event('RecordingFinished', { recording: { name: 'recording-1' } }), undefined)).toBe(
      true,
    );
    expect(owned.follow(event('RecordingFinished', { recording: { name: 'recording-1' } }), undefined)).toBe(
      false,
    );
    expect(owned.size).toBe(4);
  });
});
