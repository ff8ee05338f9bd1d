import { from, lastValueFrom, type Observable, toArray } from 'rxjs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { StasisEnd, StasisStart } from '../generated/types.ts';
import { fromServer } from './fromServer.ts';
import { isKnownEvent } from './isKnownEvent.ts';
import { keyMatches, matchKey } from './matchKey.ts';
import { ofType } from './ofType.ts';
import {
  forBridge,
  forChannel,
  forDevice,
  forEndpoint,
  forPlayback,
  forRecording,
} from './resourceFilters.ts';
import type { StreamEvent } from './StreamEvent.ts';
import { craftedEvent, recordedEvents } from './test-support/fixtures.ts';

/** The recorded demo-app events followed by the crafted ones, as one stream's worth. */
const all: StreamEvent[] = [
  ...recordedEvents().map((r) => r.event),
  ...[
    'Dial',
    'TextMessageReceived',
    'EndpointStateChange',
    'ChannelTransfer',
    'ChannelSentimentChanged',
    'StasisEnd',
  ].map(craftedEvent),
];

const run = <T>(pipe: (source: Observable<StreamEvent>) => Observable<T>) =>
  lastValueFrom(pipe(from(all)).pipe(toArray()));
const summary = (e: StreamEvent) => `${e.type}`;

describe('ofType', () => {
  it('keeps the named types, in order, typed as their interfaces', async () => {
    const got = await run((s) => s.pipe(ofType('StasisStart', 'StasisEnd')));
    expectTypeOf(got).toEqualTypeOf<(StasisStart | StasisEnd)[]>();
    expect(got.map((e) => `${e.type} ${e.channel.id}`)).toEqual([
      'StasisStart oracle-b',
      'StasisStart oracle-a',
      'StasisEnd crafted-caller',
    ]);
  });
});

describe('resource filters on recorded and crafted events', () => {
  it('forChannel takes the Dial peer and caller, playbacks and recordings on the channel', async () => {
    const peer = await run((s) => s.pipe(forChannel('crafted-peer')));
    expect(peer.map(summary)).toEqual(['Dial', 'ChannelTransfer']);
    const caller = await run((s) => s.pipe(forChannel('crafted-caller')));
    expect(caller.map(summary)).toEqual(['Dial', 'ChannelSentimentChanged', 'StasisEnd']);
    const p1 = await run((s) => s.pipe(forChannel('oracle-p1'), ofType('PlaybackStarted')));
    expect(p1.map((e) => `${e.playback.id} ${e.application}`)).toEqual([
      'pb-plain demo-app',
      'pb-plain plain-app',
    ]);
  });

  it('forChannel of a real originate follows both halves separately', async () => {
    const a = await run((s) => s.pipe(forChannel('oracle-a'), ofType('Dial')));
    expect(a.map((e) => e.dialstatus)).toEqual(['', 'RINGING', 'PROGRESS', 'ANSWER']);
    const b = await run((s) => s.pipe(forChannel('oracle-b'), ofType('Dial')));
    expect(b).toEqual([]);
  });

  it('forBridge takes bridge events and media whose target is the bridge', async () => {
    const got = await run((s) => s.pipe(forBridge('oracle-br1')));
    expect(got.map(summary)).toEqual([
      'ChannelEnteredBridge',
      'ChannelLeftBridge',
      'ChannelEnteredBridge',
      'PlaybackStarted',
      'PlaybackStarted',
      'BridgeVideoSourceChanged',
      'BridgeVideoSourceChanged',
      'RecordingStarted',
      'RecordingFinished',
    ]);
  });

  it('forPlayback and forRecording pick one playback and one recording', async () => {
    const pb = await run((s) => s.pipe(forPlayback('bpb1')));
    expect(pb.map((e) => `${e.type} ${e.asterisk_id}`)).toEqual([
      'PlaybackStarted 02:fc:00:00:00:01',
      'PlaybackStarted 02:fc:00:00:00:01',
    ]);
    const rec = await run((s) => s.pipe(forRecording('br-rec')));
    expect(rec.map(summary)).toEqual(['RecordingStarted', 'RecordingFinished']);
    expect(await run((s) => s.pipe(forRecording('t1')))).toHaveLength(1);
  });

  it('forDevice picks one device state', async () => {
    const got = await run((s) => s.pipe(forDevice('Stasis:oracle-dev'), ofType('DeviceStateChanged')));
    expect(got.map((e) => e.device_state.state)).toEqual(['BUSY', 'INUSE']);
  });

  it('forEndpoint picks a technology or one endpoint', async () => {
    const tech = await run((s) => s.pipe(forEndpoint('PJSIP')));
    expect(tech.map(summary)).toEqual(['TextMessageReceived', 'EndpointStateChange']);
    const alice = await run((s) => s.pipe(forEndpoint('PJSIP', 'alice'), ofType('TextMessageReceived')));
    expect(alice.map((e) => e.message.body)).toEqual(['hello']);
    expect(await run((s) => s.pipe(forEndpoint('PJ')))).toEqual([]);
  });
});

describe('fromServer and matchKey', () => {
  it('fromServer keeps the events of one asterisk_id', async () => {
    const other = await run((s) => s.pipe(fromServer('02:fc:00:00:00:02')));
    expect(other.map(summary)).toEqual(['StasisEnd']);
    const main = await run((s) => s.pipe(fromServer('02:fc:00:00:00:01')));
    expect(main).toHaveLength(all.length - 1);
  });

  it('an empty key matches everything; each field narrows', async () => {
    expect(await run((s) => s.pipe(matchKey({})))).toHaveLength(all.length);
    const multiTwo = await run((s) => s.pipe(matchKey({ app: 'multi-two' })));
    expect(multiTwo.map(summary)).toEqual(['ChannelUserevent']);
    const bridgeAnywhere = await run((s) => s.pipe(matchKey({ kind: 'bridge' })));
    expect(
      bridgeAnywhere.every(
        (e) => e.type.includes('Bridge') || e.type.startsWith('Playback') || e.type.startsWith('Recording'),
      ),
    ).toBe(true);
    const idOnly = await run((s) => s.pipe(matchKey({ id: 'oracle-br1' })));
    expect(idOnly).toEqual(await run((s) => s.pipe(forBridge('oracle-br1'))));
  });

  it('kind and id must hold for the same resource; node and app must match too', () => {
    const [dial] = all.filter((e) => e.type === 'Dial' && 'caller' in e);
    expect(dial).toBeDefined();
    expect(keyMatches({ kind: 'channel', id: 'crafted-peer' }, dial!)).toBe(true);
    expect(keyMatches({ kind: 'bridge', id: 'crafted-peer' }, dial!)).toBe(false);
    expect(
      keyMatches({ kind: 'channel', id: 'crafted-peer', node: '02:fc:00:00:00:01', app: 'demo-app' }, dial!),
    ).toBe(true);
    expect(keyMatches({ kind: 'channel', id: 'crafted-peer', node: 'elsewhere' }, dial!)).toBe(false);
    expect(keyMatches({ kind: 'channel', id: 'crafted-peer', app: 'plain-app' }, dial!)).toBe(false);
  });
});

describe('isKnownEvent', () => {
  it('knows the event types of the description and passes others through as unknown', () => {
    expect(all.filter((e) => !isKnownEvent(e)).map(summary)).toEqual(['ChannelSentimentChanged']);
    expect(isKnownEvent({ type: 'MissingParams', params: [] })).toBe(false); // a message, not an event
  });
});
