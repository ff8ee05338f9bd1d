import { expect } from 'vitest';
import { httpFailure } from '../httpFailure.ts';
import { isEvent } from '../originateLocalPair.ts';
import type { Scenario } from '../Scenario.ts';

/** Reference scenario 19: explicit subscriptions of an app, their errors, and event filters. */
export const applicationsScenario: Scenario = {
  name: 'applications: subscribe/unsubscribe event sources and filter events',
  notPerCall:
    'it subscribes an application with no call to a bridge and a device: a per-call application exists only while its call is in Stasis',
  async run(s) {
    const plain = await s.listen('plain-app');
    const app = s.rest.application('plain-app');
    const br = s.id('br2');
    const device = `Stasis:${s.id('dev3')}`;
    await s.rest.bridges.create({ type: 'mixing', bridgeId: br });
    expect(await app.subscribe({ eventSource: `bridge:${br}` })).toMatchObject({
      name: 'plain-app',
      bridge_ids: [br],
    });
    expect(await app.subscribe({ eventSource: [`deviceState:${device}`] })).toMatchObject({
      bridge_ids: [br],
      device_names: [device],
    });
    expect(
      await s.send('POST', '/applications/plain-app/subscription', { eventSource: 'bogus:x' }),
    ).toMatchObject({
      status: 400,
      message: 'Invalid event source URI scheme',
    });
    expect(await httpFailure(app.subscribe({ eventSource: `channel:${s.id('no-such-channel')}` }))).toEqual({
      status: 422,
      message: 'Event source does not exist',
    });
    expect(
      await httpFailure(s.rest.application(s.id('no-such-app')).subscribe({ eventSource: `bridge:${br}` })),
    ).toEqual({
      status: 404,
      message: 'Application not found',
    });
    expect(await s.send('POST', '/applications/plain-app/subscription')).toMatchObject({
      status: 400,
      message: 'Missing parameter eventSource',
    });

    // A subscribed device's changes reach the app.
    await s.rest.deviceState(device).update({ deviceState: 'BUSY' });
    await s.nextEvent(plain, 'device change', isEvent('DeviceStateChanged'));

    expect(await app.unsubscribe({ eventSource: `bridge:${br}` })).toMatchObject({
      bridge_ids: [],
      device_names: [device],
    });
    expect(await httpFailure(app.unsubscribe({ eventSource: `bridge:${br}` }))).toEqual({
      status: 422,
      message: 'Event source was not subscribed to',
    });
    expect(
      await app.filter({ filter: { allowed: [{ type: 'StasisStart' }, { type: 'StasisEnd' }] } }),
    ).toMatchObject({
      events_allowed: [{ type: 'StasisStart' }, { type: 'StasisEnd' }],
    });
    expect(
      await s.send('PUT', '/applications/plain-app/eventFilter', {}, { allowed: 'notalist' }),
    ).toMatchObject({
      status: 400,
      message: 'Invalid format definition',
    });
    // Filtered out: the device's next change is not delivered.
    await s.rest.deviceState(device).update({ deviceState: 'INUSE' });
    expect(await app.filter({ filter: {} })).toMatchObject({ events_allowed: [], events_disallowed: [] });
    await s.rest.deviceState(device).update({ deviceState: 'NOT_INUSE' });
    await s.until('third change', () => plain.of('DeviceStateChanged').length === 2);
    expect(
      plain
        .of('DeviceStateChanged')
        .map((e) => (e as { device_state?: { state?: string } }).device_state?.state),
    ).toEqual(['BUSY', 'NOT_INUSE']);
    expect(await app.get()).toMatchObject({ name: 'plain-app', bridge_ids: [], device_names: [device] });
    await s.rest.bridge(br).destroy();
    await s.rest.deviceState(device).delete();
  },
};
