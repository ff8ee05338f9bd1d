import { expect } from 'vitest';
import { httpFailure } from '../httpFailure.ts';
import { isEvent, originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/** Reference scenario 17: user events from the interface (with snapshots of their sources) and from the dialplan. */
export const userEventsScenario: Scenario = {
  name: 'user events: variables, channel and bridge sources, errors, and UserEvent from the dialplan',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a } = await originateLocalPair(s, log, 'g', 'h');
    const userEvent = (name: string) =>
      s.nextEvent(
        log,
        `user event ${name}`,
        (e) => e.type === 'ChannelUserevent' && (e as { eventname?: string }).eventname === name,
      );

    await s.rest.events.userEvent({
      eventName: 'OracleEvent',
      application: 'demo-app',
      variables: { key1: 'value1', key2: 'value2' },
    });
    const plain = await userEvent('OracleEvent');
    expect(plain).toMatchObject({ userevent: { key1: 'value1', key2: 'value2', eventname: 'OracleEvent' } });
    expect(plain).not.toHaveProperty('channel');

    await s.rest.events.userEvent({
      eventName: 'OracleEvent2',
      application: 'demo-app',
      source: `channel:${a}`,
      variables: { k: 'v' },
    });
    expect(await userEvent('OracleEvent2')).toMatchObject({ userevent: { k: 'v' }, channel: { id: a } });

    const br = s.id('ue-br');
    await s.rest.bridges.create({ type: 'mixing', bridgeId: br });
    await s.rest.events.userEvent({
      eventName: 'OracleEvent3b',
      application: 'demo-app',
      source: `bridge:${br}`,
      variables: { b: '1' },
    });
    expect(await userEvent('OracleEvent3b')).toMatchObject({ bridge: { id: br } });
    await s.rest.bridge(br).destroy();

    const badScheme = { status: 400, message: 'Invalid event source URI scheme' };
    expect(
      await s.send('POST', '/events/user/E1', {
        application: 'demo-app',
        source: `deviceState:Stasis:${s.id('dev')}`,
      }),
    ).toMatchObject(badScheme);
    expect(
      await s.send('POST', '/events/user/E2', { application: 'demo-app', source: 'bogus:x' }),
    ).toMatchObject(badScheme);
    expect(
      await httpFailure(
        s.rest.events.userEvent({ eventName: 'E3', application: 'demo-app', source: 'endpoint:Local/foo' }),
      ),
    ).toEqual({
      status: 422,
      message: 'Event source was not found',
    });
    expect(
      await httpFailure(
        s.rest.events.userEvent({
          eventName: 'E4',
          application: 'demo-app',
          source: `channel:${s.id('no-such-channel')}`,
        }),
      ),
    ).toEqual({
      status: 422,
      message: 'Event source was not found',
    });
    expect(
      await httpFailure(s.rest.events.userEvent({ eventName: 'E5', application: s.id('no-such-app') })),
    ).toEqual({
      status: 404,
      message: 'Application not found',
    });
    expect(await s.send('POST', '/events/user/E6')).toMatchObject({
      status: 400,
      message: 'Missing parameter application',
    });
    // Values of any JSON type are accepted.
    await s.rest.events.userEvent({
      eventName: 'OracleEvent8',
      application: 'demo-app',
      variables: { nested: { a: 1 }, num: 5 },
    });
    await userEvent('OracleEvent8');

    // From the dialplan: default,300 raises OracleDialplanEvent, then enters demo-app with from-300.
    const ue = s.id('ue');
    await s.rest.channels.originate({
      endpoint: 'Local/wait@stasis-ivr',
      context: 'default',
      extension: '300',
      priority: 1,
      channelId: ue,
      otherChannelId: s.id('ue2'),
    });
    const fromDialplan = await userEvent('OracleDialplanEvent');
    expect(fromDialplan).toMatchObject({
      userevent: { eventname: 'OracleDialplanEvent', foo: 'bar', baz: 'qux' },
      channel: { id: ue },
    });
    expect(await s.nextEvent(log, 'StasisStart from 300', isEvent('StasisStart', ue))).toMatchObject({
      args: ['from-300'],
    });
    await s.rest.channel(ue).hangup();
  },
};
