import { describe, expect, it } from 'vitest';
import { eventTypeNames } from '../description/index.ts';
import { eventResources, parseTargetUri, refersTo, visitEventResources } from './eventResources.ts';
import type { StreamEvent } from './StreamEvent.ts';
import { craftedEvent, recordedEvent, recordedEvents } from './test-support/fixtures.ts';

const refs = (event: StreamEvent) => eventResources(event).map((r) => `${r.kind}:${r.id}@${r.via}`);

describe('eventResources on recorded events', () => {
  it('finds the peer of a real Dial', () => {
    expect(refs(recordedEvent(45))).toEqual(['channel:oracle-a@peer']);
  });

  it('finds the playback and, through target_uri, the channel or bridge it plays to', () => {
    expect(refs(recordedEvent(99))).toEqual([
      'playback:pb-plain@playback',
      'channel:oracle-p1@playback.target_uri',
    ]);
    expect(refs(recordedEvent(261))).toEqual([
      'playback:bpb1@playback',
      'bridge:oracle-br1@playback.target_uri',
    ]);
  });

  it('names recordings by name and follows their target', () => {
    expect(refs(recordedEvent(194))).toEqual([
      'recording:t1@recording',
      'channel:oracle-a@recording.target_uri',
    ]);
    expect(refs(recordedEvent(302))).toEqual([
      'recording:br-rec@recording',
      'bridge:oracle-br1@recording.target_uri',
    ]);
  });

  it('names device states by device name', () => {
    expect(refs(recordedEvent(585))).toEqual(['deviceState:Stasis:oracle-dev@device_state']);
    expect(refs(recordedEvent(49))).toEqual(['deviceState:Local/s@stasis-ivr@device_state']);
  });

  it('finds both the bridge and the channel of a bridge entry, in field order', () => {
    expect(refs(recordedEvent(250))).toEqual(['bridge:oracle-br1@bridge', 'channel:oracle-a@channel']);
  });

  it('finds nothing in events about no resource, and the channel when a user event has one', () => {
    expect(refs(recordedEvent(25))).toEqual([]); // global variable set
    expect(refs(recordedEvent(700))).toEqual([]); // user event without channel
    expect(refs(recordedEvent(703))).toEqual(['channel:oracle-g@channel']);
    expect(refs(recordedEvent(873))).toEqual([]); // RESTResponse
    expect(refs(recordedEvent(969))).toEqual([]); // ApplicationReplaced
  });

  it('never throws on any recorded event, and every channel event names its channel', () => {
    let channelEvents = 0;
    for (const { event } of recordedEvents()) {
      const found = eventResources(event);
      const channel = (event as { channel?: { id?: string } }).channel;
      if (!channel?.id) continue;
      channelEvents++;
      expect(found).toContainEqual({ kind: 'channel', id: channel.id, via: 'channel' });
    }
    expect(channelEvents, 'recorded events with a channel').toBeGreaterThan(0);
  });
});

describe('eventResources on crafted events', () => {
  it('finds caller and peer of a Dial, each once', () => {
    expect(refs(craftedEvent('Dial'))).toEqual([
      'channel:crafted-caller@caller',
      'channel:crafted-peer@peer',
    ]);
  });

  it('names endpoints technology/resource', () => {
    expect(refs(craftedEvent('TextMessageReceived'))).toEqual(['endpoint:PJSIP/alice@endpoint']);
    expect(refs(craftedEvent('EndpointStateChange'))).toEqual(['endpoint:PJSIP/bob@endpoint']);
  });

  it('reaches channels nested in other models (a transfer request)', () => {
    expect(refs(craftedEvent('ChannelTransfer'))).toEqual([
      'channel:crafted-target@refer_to.destination_channel',
      'channel:crafted-peer@referred_by.source_channel',
    ]);
  });

  it('reads an unknown event type through the field names that mean a resource in every known event', () => {
    expect(refs(craftedEvent('ChannelSentimentChanged'))).toEqual(['channel:crafted-caller@channel']);
  });

  it('does not trust field names whose meaning differs between events', () => {
    // `caller` is a Channel in Dial but a string in CallBroadcast; `peer` is a Channel in Dial but a
    // Peer in PeerStatusChange. Only `channel` means a channel everywhere.
    const unknown = { type: 'FutureDial', caller: { id: 'x' }, peer: { id: 'y' }, channel: { id: 'z' } };
    expect(refs(unknown)).toEqual(['channel:z@channel']);
  });

  it('skips malformed resources instead of throwing', () => {
    const broken = {
      type: 'Dial',
      peer: 'not-an-object',
      caller: { id: 42 },
      forwarded: null,
    } as unknown as StreamEvent;
    expect(eventResources(broken)).toEqual([]);
    const badTarget = {
      type: 'PlaybackStarted',
      playback: { id: 'p', target_uri: 'elsewhere' },
    } as unknown as StreamEvent;
    expect(refs(badTarget)).toEqual(['playback:p@playback']);
  });

  it('has a plan for every event type of the description', () => {
    for (const type of eventTypeNames) expect(() => eventResources({ type })).not.toThrow();
  });
});

describe('visitEventResources', () => {
  const visited = (event: StreamEvent) => {
    const seen: string[] = [];
    visitEventResources(event, seen, (list, kind, id, via) => list.push(`${kind}:${id}@${via}`));
    return seen;
  };

  it('visits what eventResources lists, in the same order, on every recorded event', () => {
    for (const { event } of recordedEvents()) {
      expect([...new Set(visited(event))].map((ref) => ref.split('@')[0])).toEqual([
        ...new Set(refs(event).map((ref) => ref.split('@')[0])),
      ]);
    }
  });

  it('visits a resource named twice twice, and skips malformed ones', () => {
    const twice = {
      type: 'Dial',
      caller: { id: 'same' },
      peer: { id: 'same' },
      forwarded: { id: '' },
    } as unknown as StreamEvent;
    expect(visited(twice)).toEqual(['channel:same@caller', 'channel:same@peer']);
    expect(refs(twice)).toEqual(['channel:same@caller']);
  });
});

describe('parseTargetUri and refersTo', () => {
  it('splits known target kinds and rejects the rest', () => {
    expect(parseTargetUri('channel:abc')).toEqual({ kind: 'channel', id: 'abc' });
    expect(parseTargetUri('bridge:a:b')).toEqual({ kind: 'bridge', id: 'a:b' });
    expect(parseTargetUri('sound:beep')).toBeUndefined();
    expect(parseTargetUri('channel:')).toBeUndefined();
    expect(parseTargetUri(':x')).toBeUndefined();
  });

  it('answers whether an event refers to a resource', () => {
    expect(refersTo(recordedEvent(261), 'bridge', 'oracle-br1')).toBe(true);
    expect(refersTo(recordedEvent(261), 'channel', 'oracle-br1')).toBe(false);
  });
});
