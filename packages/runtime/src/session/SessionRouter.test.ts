import type { StreamEvent } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { type EventOwner, SessionRouter } from './SessionRouter.ts';

const PBX = '02:fc:00:00:00:01';

function owner(name: string): EventOwner & { name: string; got: string[] } {
  const got: string[] = [];
  return { name, got, deliver: (event) => got.push(event.type) };
}

const dtmf = (channelId: string) =>
  ({ type: 'ChannelDtmfReceived', digit: '1', channel: { id: channelId } }) as unknown as StreamEvent;
const enteredBridge = (bridgeId: string, channelId: string) =>
  ({
    type: 'ChannelEnteredBridge',
    bridge: { id: bridgeId },
    channel: { id: channelId },
  }) as unknown as StreamEvent;

describe('SessionRouter', () => {
  it('routes an event to the owners of the resources it names, each once', () => {
    const router = new SessionRouter();
    const call = owner('call');
    const room = owner('room');
    router.add(PBX, 'channel', 'c1', call);
    router.add(PBX, 'bridge', 'b1', call);
    router.add(PBX, 'bridge', 'b1', room);
    expect(router.route(PBX, enteredBridge('b1', 'c1'))).toBe(2);
    expect(call.got).toEqual(['ChannelEnteredBridge']); // owns both: reached once
    expect(room.got).toEqual(['ChannelEnteredBridge']);
    expect(router.route('another-server', dtmf('c1'))).toBe(0);
    expect(router.size).toBe(2);
  });

  it('keeps a resource routed while one owner is left, and forgets it with the last', () => {
    const router = new SessionRouter();
    const a = owner('a');
    const b = owner('b');
    const c = owner('c');
    router.add(PBX, 'bridge', 'b1', a);
    router.add(PBX, 'bridge', 'b1', a); // twice: still one owner
    router.add(PBX, 'bridge', 'b1', b);
    router.add(PBX, 'bridge', 'b1', c);
    router.remove(PBX, 'bridge', 'b1', b);
    expect(router.ownersOf(PBX, 'bridge', 'b1')).toEqual([a, c]);
    router.remove(PBX, 'bridge', 'b1', a);
    expect(router.ownersOf(PBX, 'bridge', 'b1')).toEqual([c]);
    router.remove(PBX, 'bridge', 'b1', a); // not an owner any more: nothing changes
    expect(router.size).toBe(1);
    router.remove(PBX, 'bridge', 'b1', c);
    expect(router.ownersOf(PBX, 'bridge', 'b1')).toEqual([]);
    expect(router.size).toBe(0);
  });

  it('reaches every owner of an event in field order, even when one routes another event on delivery', () => {
    const router = new SessionRouter();
    const seen: string[] = [];
    const room: EventOwner = {
      deliver: (event) => {
        seen.push(`room ${event.type}`);
        // A bridge session that reacts at once with an event of its own (an in-process server).
        if (event.type === 'ChannelEnteredBridge') router.route(PBX, dtmf('c2'));
      },
    };
    const call = { deliver: (event: StreamEvent) => seen.push(`call ${event.type}`) };
    const other = { deliver: (event: StreamEvent) => seen.push(`other ${event.type}`) };
    router.add(PBX, 'bridge', 'b1', room);
    router.add(PBX, 'channel', 'c1', call);
    router.add(PBX, 'channel', 'c2', other);
    expect(router.route(PBX, enteredBridge('b1', 'c1'))).toBe(2);
    expect(seen).toEqual([
      'room ChannelEnteredBridge',
      'other ChannelDtmfReceived',
      'call ChannelEnteredBridge',
    ]);
    expect(router.resolve(PBX, enteredBridge('b1', 'c1'))).toEqual([room, call]);
    expect(router.resolve(PBX, dtmf('nobody'))).toEqual([]);
    expect(router.route(PBX, dtmf('nobody'))).toBe(0);
  });
});
