import type { DeviceState } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { DeviceStates } from './DeviceStates.ts';
import { expectSimError } from './expectSimError.ts';
import { type MailboxChange, Mailboxes } from './Mailboxes.ts';
import { ModuleRegistry } from './ModuleRegistry.ts';
import type { ModuleSpec } from './ModuleSpec.ts';
import { defaultModules } from './defaultModules.ts';

function setup(modules = new ModuleRegistry()) {
  const deviceStates = new DeviceStates();
  const mwi: DeviceState[] = [];
  deviceStates.onChange((s) => mwi.push(s));
  const mailboxes = new Mailboxes({ modules, deviceStates });
  const changes: MailboxChange[] = [];
  mailboxes.onChange((c) => changes.push(c));
  return { mailboxes, deviceStates, mwi, changes, modules };
}

/** The stock modules, with the MWI module set to run or not and free to unload. */
function modulesWith(overrides: Record<string, Partial<ModuleSpec>>): ModuleRegistry {
  return new ModuleRegistry({
    modules: defaultModules.map((m) => ({ ...m, ...overrides[m.name] })),
  });
}

describe('Mailboxes', () => {
  it('follows the traced PUT/GET/list/DELETE sequence with its lenient counts and MWI states', () => {
    const { mailboxes, mwi } = setup();
    mailboxes.update('oracle-mbx', '1', '2');
    expect(mailboxes.get('oracle-mbx')).toEqual({ name: 'oracle-mbx', old_messages: 1, new_messages: 2 });
    expect(mailboxes.list()).toEqual([{ name: 'oracle-mbx', old_messages: 1, new_messages: 2 }]);
    mailboxes.update('oracle-mbx', '1', undefined);
    expect(mailboxes.get('oracle-mbx')).toEqual({ name: 'oracle-mbx', old_messages: 1, new_messages: 0 });
    mailboxes.update('oracle-mbx', 'abc', '2');
    expect(mailboxes.get('oracle-mbx')).toEqual({ name: 'oracle-mbx', old_messages: 0, new_messages: 2 });
    mailboxes.delete('oracle-mbx');
    expectSimError(() => mailboxes.get('oracle-mbx'), 404, 'Mailbox is does not exist');
    expectSimError(() => mailboxes.delete('oracle-mbx'), 404, 'Mailbox does not exist');
    expect(mwi).toEqual([
      { name: 'MWI:oracle-mbx', state: 'INUSE' },
      { name: 'MWI:oracle-mbx', state: 'NOT_INUSE' },
      { name: 'MWI:oracle-mbx', state: 'INUSE' },
      { name: 'MWI:oracle-mbx', state: 'NOT_INUSE' },
    ]);
  });

  it('accepts numbers as well as raw query text, and keeps counts as unsigned 32-bit values', () => {
    const { mailboxes } = setup();
    mailboxes.update('a', 3, 4);
    expect(mailboxes.get('a')).toEqual({ name: 'a', old_messages: 3, new_messages: 4 });
    mailboxes.update('a', '-1', '0');
    expect(mailboxes.readCounts('a')).toEqual({ msgsOld: 4294967295, msgsNew: 0 });
    expect(mailboxes.get('a').old_messages).toBe(-1);
  });

  it('tells listeners about each update and delete', () => {
    const { mailboxes, changes } = setup();
    mailboxes.update('m', '0', '1');
    mailboxes.update('m', '0', '1');
    mailboxes.delete('m');
    expect(changes).toEqual([
      { mailbox: { name: 'm', old_messages: 0, new_messages: 1 }, deleted: false },
      { mailbox: { name: 'm', old_messages: 0, new_messages: 1 }, deleted: false },
      { mailbox: { name: 'm', old_messages: 0, new_messages: 1 }, deleted: true },
    ]);
  });

  it('publishes the MWI device state only when it changes', () => {
    const { mailboxes, mwi, deviceStates } = setup();
    mailboxes.update('m', '0', '1');
    mailboxes.update('m', '5', '3');
    mailboxes.update('n', '0', '0');
    expect(mwi).toEqual([
      { name: 'MWI:m', state: 'INUSE' },
      { name: 'MWI:n', state: 'NOT_INUSE' },
    ]);
    expect(deviceStates.get('MWI:m').state).toBe('INUSE');
  });

  it('lists mailboxes by name', () => {
    const { mailboxes } = setup();
    mailboxes.update('b', '0', '0');
    mailboxes.update('a', '0', '0');
    expect(mailboxes.list().map((m) => m.name)).toEqual(['a', 'b']);
  });

  it('has no mailbox resource while res_mwi_external is not running, and keeps the stored data', () => {
    const modules = modulesWith({ 'res_mwi_external.so': { useCount: 0 } });
    const { mailboxes } = setup(modules);
    mailboxes.update('kept', '1', '1');
    modules.unload('res_mwi_external');
    expect(mailboxes.available).toBe(false);
    expectSimError(() => mailboxes.list(), 404, 'Resource not found');
    expectSimError(() => mailboxes.get('kept'), 404, 'Resource not found');
    expectSimError(() => mailboxes.update('kept', '1', '1'), 404, 'Resource not found');
    expectSimError(() => mailboxes.delete('kept'), 404, 'Resource not found');
    modules.load('res_mwi_external');
    expect(mailboxes.get('kept')).toEqual({ name: 'kept', old_messages: 1, new_messages: 1 });
  });

  it('raises no MWI device state while res_mwi_devstate is not running', () => {
    const modules = modulesWith({ 'res_mwi_devstate.so': { running: false } });
    const { mailboxes, mwi } = setup(modules);
    mailboxes.update('m', '0', '1');
    expect(mwi).toEqual([]);
    modules.load('res_mwi_devstate');
    mailboxes.update('m', '0', '2');
    expect(mwi).toEqual([{ name: 'MWI:m', state: 'INUSE' }]);
  });

  it('works without modules or device states', () => {
    const mailboxes = new Mailboxes();
    mailboxes.update('solo', '2', '1');
    expect(mailboxes.list()).toEqual([{ name: 'solo', old_messages: 2, new_messages: 1 }]);
  });
});
