import type { DeviceState } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { DeviceStates } from './DeviceStates.ts';
import { expectSimError } from './expectSimError.ts';

function watched(options?: ConstructorParameters<typeof DeviceStates>[0]) {
  const devices = new DeviceStates(options);
  const events: DeviceState[] = [];
  devices.onChange((s) => events.push(s));
  return { devices, events };
}

describe('DeviceStates', () => {
  it('creates, changes, lists and reads a controlled device (traced)', () => {
    const { devices, events } = watched();
    devices.update('Stasis:oracle-dev', 'BUSY');
    expect(devices.get('Stasis:oracle-dev')).toEqual({ name: 'Stasis:oracle-dev', state: 'BUSY' });
    devices.update('Stasis:oracle-dev', 'INUSE');
    expect(devices.list()).toEqual([{ name: 'Stasis:oracle-dev', state: 'INUSE' }]);
    expect(events).toEqual([
      { name: 'Stasis:oracle-dev', state: 'BUSY' },
      { name: 'Stasis:oracle-dev', state: 'INUSE' },
    ]);
  });

  it('reads an unknown device as UNKNOWN, and as INVALID when its name has no technology or provider', () => {
    const { devices } = watched();
    expect(devices.get('Stasis:never')).toEqual({ name: 'Stasis:never', state: 'UNKNOWN' });
    expect(devices.get('PJSIP/nobody')).toEqual({ name: 'PJSIP/nobody', state: 'UNKNOWN' });
    expect(devices.get('overwrite')).toEqual({ name: 'overwrite', state: 'INVALID' });
  });

  it('answers 500 Unknown device for a bad or missing state, and changes nothing', () => {
    const { devices, events } = watched();
    expectSimError(() => devices.update('Stasis:oracle-dev', 'bogus'), 500, 'Unknown device');
    expectSimError(() => devices.update('Stasis:oracle-dev', undefined), 500, 'Unknown device');
    expectSimError(() => devices.update('Stasis:oracle-dev', 'UNKNOWN'), 500, 'Unknown device');
    expect(devices.list()).toEqual([]);
    expect(events).toEqual([]);
  });

  it('accepts every settable state, in any case', () => {
    const { devices } = watched();
    for (const state of [
      'NOT_INUSE',
      'INUSE',
      'BUSY',
      'INVALID',
      'UNAVAILABLE',
      'RINGING',
      'RINGINUSE',
      'ONHOLD',
    ]) {
      devices.update('Stasis:d', state.toLowerCase());
      expect(devices.get('Stasis:d').state).toBe(state);
    }
  });

  it('refuses devices outside Stasis: with 409, checked before the state', () => {
    const { devices } = watched();
    expectSimError(() => devices.update('Local:oracle-dev', 'BUSY'), 409, 'Uncontrolled device specified');
    expectSimError(() => devices.update('Local:oracle-dev', 'bogus'), 409, 'Uncontrolled device specified');
    expectSimError(() => devices.delete('Local:foo'), 409, 'Uncontrolled device specified');
    expectSimError(() => devices.update('Stasis:', 'BUSY'), 404, 'Device name is missing');
    expectSimError(() => devices.delete('Stasis:'), 404, 'Device name is missing');
  });

  it('reads an unknown device as UNKNOWN, controlled or not', () => {
    const { devices } = watched();
    expect(devices.get('Stasis:never-created')).toEqual({ name: 'Stasis:never-created', state: 'UNKNOWN' });
    expect(devices.get('PJSIP/nobody')).toEqual({ name: 'PJSIP/nobody', state: 'UNKNOWN' });
  });

  it('deletes silently, twice, and the device then reads UNKNOWN (traced)', () => {
    const { devices, events } = watched();
    devices.update('Stasis:oracle-dev', 'INUSE');
    devices.delete('Stasis:oracle-dev');
    devices.delete('Stasis:oracle-dev');
    expect(devices.get('Stasis:oracle-dev').state).toBe('UNKNOWN');
    expect(devices.list()).toEqual([]);
    expect(events).toHaveLength(1);
    // After a delete the next update is a change again.
    devices.update('Stasis:oracle-dev', 'INUSE');
    expect(events).toHaveLength(2);
  });

  it('publishes a controlled device only when its state changes', () => {
    const { devices, events } = watched();
    devices.update('Stasis:a', 'BUSY');
    devices.update('Stasis:a', 'busy');
    devices.update('Stasis:a', 'NOT_INUSE');
    expect(events.map((e) => e.state)).toEqual(['BUSY', 'NOT_INUSE']);
  });

  it('matches the Stasis: prefix without case and lists the canonical name', () => {
    const { devices, events } = watched();
    devices.update('stasis:lower', 'RINGING');
    expect(devices.list()).toEqual([{ name: 'Stasis:lower', state: 'RINGING' }]);
    expect(devices.get('STASIS:lower')).toEqual({ name: 'STASIS:lower', state: 'RINGING' });
    expect(events).toEqual([{ name: 'Stasis:lower', state: 'RINGING' }]);
  });

  it('lists controlled devices sorted by name', () => {
    const { devices } = watched();
    devices.update('Stasis:b', 'BUSY');
    devices.update('Stasis:a', 'INUSE');
    expect(devices.list().map((d) => d.name)).toEqual(['Stasis:a', 'Stasis:b']);
  });

  it('carries reported states of other devices: cached ones deduplicated, others always', () => {
    const { devices, events } = watched();
    expect(devices.report('MWI:1000', 'INUSE')).toBe(true);
    expect(devices.report('MWI:1000', 'INUSE')).toBe(false);
    expect(devices.get('MWI:1000').state).toBe('INUSE');
    devices.report('Local/s@stasis-ivr', 'INUSE', { cachable: false });
    devices.report('Local/s@stasis-ivr', 'INUSE', { cachable: false });
    expect(events).toEqual([
      { name: 'MWI:1000', state: 'INUSE' },
      { name: 'Local/s@stasis-ivr', state: 'INUSE' },
      { name: 'Local/s@stasis-ivr', state: 'INUSE' },
    ]);
    expect(devices.list()).toEqual([]);
    expect(() => devices.report('Stasis:x', 'BUSY')).toThrow(/controlled device/);
  });

  it('asks the lookup for live states of devices it does not control', () => {
    const { devices } = watched({ lookup: (name) => (name === 'Local/s@ivr' ? 'INUSE' : undefined) });
    devices.report('MWI:9', 'NOT_INUSE');
    expect(devices.get('Local/s@ivr').state).toBe('INUSE');
    expect(devices.get('MWI:9').state).toBe('NOT_INUSE');
    expect(devices.get('Other/x').state).toBe('UNKNOWN');
  });
});
