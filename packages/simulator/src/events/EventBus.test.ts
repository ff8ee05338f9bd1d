import { VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { EventBus } from './EventBus.ts';

function setup() {
  const bus = new EventBus(new VirtualClock(Date.UTC(2026, 10, 22, 3, 47, 11, 718)), '02:fc:00:00:00:01');
  const got: Record<string, unknown>[] = [];
  return { bus, got, deliver: (e: Record<string, unknown>) => got.push(e) };
}

const pjsipChannel = { id: 'c1', technology: 'PJSIP', endpointKey: 'PJSIP/alice' };

describe('EventBus', () => {
  it('stamps the envelope: type, timestamp in the server format, asterisk_id, application', () => {
    const { bus, got, deliver } = setup();
    bus.connect({ apps: ['a'], subscribeAll: true }, deliver);
    bus.publish('ChannelVarset', { variable: 'X', value: '1' }, { serverWide: true });
    expect(got).toEqual([
      {
        type: 'ChannelVarset',
        timestamp: '2026-11-22T03:47:11.718+0000',
        variable: 'X',
        value: '1',
        asterisk_id: '02:fc:00:00:00:01',
        application: 'a',
      },
    ]);
  });

  it('follows the subscription hierarchy: channel, its endpoint, its technology', () => {
    const { bus, got, deliver } = setup();
    bus.connect({ apps: ['byChannel', 'byEndpoint', 'byTech', 'other'], subscribeAll: false }, deliver);
    bus.app('byChannel')!.channelIds.add('c1');
    bus.app('byEndpoint')!.endpointIds.add('PJSIP/alice');
    bus.app('byTech')!.endpointIds.add('PJSIP');
    bus.app('other')!.endpointIds.add('PJSIP/bob');
    bus.publish('ChannelStateChange', {}, { channels: [pjsipChannel] });
    expect(got.map((e) => e.application)).toEqual(['byChannel', 'byEndpoint', 'byTech']);
  });

  it('sends application-directed events to that app only, and honours the event filter', () => {
    const { bus, got, deliver } = setup();
    bus.connect({ apps: ['a', 'b'], subscribeAll: true }, deliver);
    bus.app('b')!.eventsDisallowed = [{ type: 'ChannelUserevent' }];
    bus.publish('StasisStart', {}, { app: 'a' });
    bus.publish('ChannelUserevent', {}, { channels: [pjsipChannel] });
    expect(got.map((e) => `${e.application}:${e.type}`)).toEqual(['a:StasisStart', 'a:ChannelUserevent']);
  });

  it('replaces an app taken by a second connection; the old one hears ApplicationReplaced then nothing', () => {
    const first = setup();
    const second: Record<string, unknown>[] = [];
    first.bus.connect({ apps: ['a'], subscribeAll: true }, first.deliver);
    first.bus.connect({ apps: ['a'], subscribeAll: false }, (e) => second.push(e));
    first.bus.publish('ChannelVarset', {}, { serverWide: true });
    expect(first.got.map((e) => e.type)).toEqual(['ApplicationReplaced']);
    // The subscription stays subscribeAll although the second socket did not ask for it.
    expect(second.map((e) => e.type)).toEqual(['ChannelVarset']);
    expect(first.bus.app('a')!.toJson().channel_ids).toEqual(['__AST_CHANNEL_ALL_TOPIC']);
  });

  it('delivers in publication order when a consumer publishes while handling an event', () => {
    const { bus, got } = setup();
    bus.connect({ apps: ['a'], subscribeAll: true }, (e) => {
      got.push(e);
      if (e.type === 'First') bus.publish('Nested', {}, { serverWide: true });
    });
    bus.publish('First', {}, { serverWide: true });
    bus.publish('Second', {}, { serverWide: true });
    expect(got.map((e) => e.type)).toEqual(['First', 'Nested', 'Second']);
  });

  it('unlists a closed app but keeps its subscriptions for a reconnect, as the real server does', () => {
    const { bus, got, deliver } = setup();
    const first = bus.connect({ apps: ['a'], subscribeAll: false }, deliver);
    bus.app('a')!.channelIds.add('c1');
    if ('close' in first) first.close();
    expect(bus.activeApps()).toEqual([]);
    bus.publish('ChannelStateChange', {}, { channels: [pjsipChannel] });
    bus.connect({ apps: ['a'], subscribeAll: false }, deliver);
    bus.publish('ChannelStateChange', {}, { channels: [pjsipChannel] });
    expect(got.map((e) => e.type)).toEqual(['ChannelStateChange']);
  });

  it('refuses a connection without an application', () => {
    const { bus, deliver } = setup();
    expect(bus.connect({ apps: [''], subscribeAll: false }, deliver)).toMatchObject({ status: 400 });
  });
});
