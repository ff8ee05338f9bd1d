import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import { httpFailure } from '../httpFailure.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/** Reference scenario 12: only `Stasis:` devices are controlled; every change is an event. */
export const deviceStatesScenario: Scenario = {
  name: 'device states: controlled Stasis: devices change and raise events; others are 409',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const device = `Stasis:${s.id('dev')}`;
    await s.rest.deviceState(device).update({ deviceState: 'BUSY' });
    expect(await s.rest.deviceState(device).get()).toEqual({ name: device, state: 'BUSY' });
    await s.rest.deviceState(device).update({ deviceState: 'INUSE' });
    expect(await s.rest.deviceStates.list()).toContainEqual({ name: device, state: 'INUSE' });

    const unknown = { status: 500, message: 'Unknown device' };
    expect(await s.send('PUT', `/deviceStates/${device}`, { deviceState: 'bogus' })).toMatchObject(unknown);
    expect(await s.send('PUT', `/deviceStates/${device}`)).toMatchObject(unknown);
    const uncontrolled = { status: 409, message: 'Uncontrolled device specified' };
    expect(await httpFailure(s.rest.deviceState('Local:oracle-dev').update({ deviceState: 'BUSY' }))).toEqual(
      uncontrolled,
    );
    expect(await httpFailure(s.rest.deviceState('Local:foo').delete())).toEqual(uncontrolled);
    const never = `Stasis:${s.id('never-created')}`;
    expect(await s.rest.deviceState(never).get()).toEqual({ name: never, state: 'UNKNOWN' });

    await s.rest.deviceState(device).delete();
    await s.rest.deviceState(device).delete(); // deleting again is fine
    expect(await s.rest.deviceState(device).get()).toEqual({ name: device, state: 'UNKNOWN' });
    await s.until('two changes', () => log.of('DeviceStateChanged').length >= 2);
    expect(log.of('DeviceStateChanged').map(describeEvent)).toEqual([
      `DeviceStateChanged ${device} BUSY`,
      `DeviceStateChanged ${device} INUSE`,
    ]);
  },
};
