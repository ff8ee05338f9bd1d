import type { DeviceState } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { ConfigFileStore } from './ConfigFileStore.ts';
import { stringField } from './configFieldKinds.ts';
import { DeviceStates } from './DeviceStates.ts';
import { DynamicConfig } from './DynamicConfig.ts';
import { defaultModules } from './defaultModules.ts';
import { expectSimError } from './expectSimError.ts';
import { Mailboxes } from './Mailboxes.ts';
import { ModuleRegistry } from './ModuleRegistry.ts';

const users = [
  { name: 'demo', password: 'demo' },
  { name: 'viewer', password: 'viewer', readOnly: true },
];

function setup(modules = new ModuleRegistry()) {
  const deviceStates = new DeviceStates();
  const mwi: DeviceState[] = [];
  deviceStates.onChange((s) => mwi.push(s));
  const mailboxes = new Mailboxes({ modules, deviceStates });
  const config = new DynamicConfig({ users, mailboxes, modules });
  return { config, mailboxes, mwi, modules };
}

const fields = (...pairs: [string, string][]) => ({
  fields: pairs.map(([attribute, value]) => ({ attribute, value })),
});

describe('DynamicConfig', () => {
  it('404s unknown classes (res_pjsip is not built), types and objects with the traced messages', () => {
    const { config } = setup();
    expectSimError(() => config.get('res_pjsip', 'endpoint', 'x'), 404, "configClass 'res_pjsip' not found");
    expectSimError(
      () => config.update('res_pjsip', 'endpoint', 'x', fields(['allow', 'ulaw'])),
      404,
      "configClass 'res_pjsip' not found",
    );
    expectSimError(
      () => config.delete('res_pjsip', 'endpoint', 'x'),
      404,
      "configClass 'res_pjsip' not found",
    );
    expectSimError(() => config.get('no_such_class', 'x', 'y'), 404, "configClass 'no_such_class' not found");
    expectSimError(
      () => config.get('res_mwi_external', 'no_such_type', 'x'),
      404,
      "objectType 'no_such_type' not found",
    );
    expectSimError(
      () => config.get('res_mwi_external', 'mailboxes', 'oracle-dyn'),
      404,
      "Object with id 'oracle-dyn' not found",
    );
  });

  it('creates, reads, validates and deletes astdb-backed MWI mailboxes (traced sequence)', () => {
    const { config, mailboxes, mwi } = setup();
    const created = config.update(
      'res_mwi_external',
      'mailboxes',
      'oracle-dyn',
      fields(['msgs_new', '3'], ['msgs_old', '4']),
    );
    const expected = [
      { attribute: 'msgs_new', value: '3' },
      { attribute: 'msgs_old', value: '4' },
    ];
    expect(created).toEqual(expected);
    expect(config.get('res_mwi_external', 'mailboxes', 'oracle-dyn')).toEqual(expected);
    expect(mailboxes.get('oracle-dyn')).toEqual({ name: 'oracle-dyn', old_messages: 4, new_messages: 3 });
    expectSimError(
      () => config.update('res_mwi_external', 'mailboxes', 'oracle-dyn', fields(['no_such_field', '1'])),
      400,
      "Update of object 'oracle-dyn' failed field value validation",
    );
    expect(config.update('res_mwi_external', 'mailboxes', 'oracle-dyn', { fields: 'notalist' })).toEqual(
      expected,
    );
    config.delete('res_mwi_external', 'mailboxes', 'oracle-dyn');
    expectSimError(
      () => config.delete('res_mwi_external', 'mailboxes', 'oracle-dyn'),
      404,
      "Object with id 'oracle-dyn' not found",
    );
    expectSimError(() => mailboxes.get('oracle-dyn'), 404, 'Mailbox is does not exist');
    // As traced: INUSE on create, nothing for the no-op update, NOT_INUSE on delete.
    expect(mwi).toEqual([
      { name: 'MWI:oracle-dyn', state: 'INUSE' },
      { name: 'MWI:oracle-dyn', state: 'NOT_INUSE' },
    ]);
  });

  it('shows mailboxes made through /mailboxes as config objects, and updates fields one at a time', () => {
    const { config, mailboxes } = setup();
    mailboxes.update('1000', '2', '5');
    expect(config.get('res_mwi_external', 'mailboxes', '1000')).toEqual([
      { attribute: 'msgs_new', value: '5' },
      { attribute: 'msgs_old', value: '2' },
    ]);
    config.update('res_mwi_external', 'mailboxes', '1000', fields(['msgs_new', '0x10']));
    expect(mailboxes.get('1000')).toEqual({ name: '1000', old_messages: 2, new_messages: 16 });
  });

  it('creates a mailbox with defaults when no body is sent, but refuses an update without fields', () => {
    const { config } = setup();
    expect(config.update('res_mwi_external', 'mailboxes', 'empty', undefined)).toEqual([
      { attribute: 'msgs_new', value: '0' },
      { attribute: 'msgs_old', value: '0' },
    ]);
    expectSimError(
      () => config.update('res_mwi_external', 'mailboxes', 'empty', undefined),
      400,
      "Fields must be provided to update object 'empty'",
    );
  });

  it('validates counts as unsigned numbers: creation failures name the creation', () => {
    const { config } = setup();
    for (const bad of ['abc', '-1', '4294967296', '3 ', '']) {
      expectSimError(
        () => config.update('res_mwi_external', 'mailboxes', 'v', fields(['msgs_new', bad])),
        400,
        "Creation of object 'v' failed field value validation",
      );
    }
    expect(config.update('res_mwi_external', 'mailboxes', 'v', fields(['msgs_old', ' 010']))[1]).toEqual({
      attribute: 'msgs_old',
      value: '8',
    });
  });

  it('refuses tuples it cannot read', () => {
    const { config } = setup();
    for (const item of [null, 'x', { attribute: 'msgs_new' }, { attribute: 'msgs_new', value: 3 }]) {
      expectSimError(
        () => config.update('res_mwi_external', 'mailboxes', 'w', { fields: [item] }),
        400,
        "Creation of object 'w' failed field value validation",
      );
    }
  });

  it('reads config-file ARI users and refuses to write them (traced)', () => {
    const { config } = setup();
    expect(config.get('res_ari', 'user', 'viewer')).toEqual([
      { attribute: 'password_format', value: 'plain' },
      { attribute: 'password', value: 'viewer' },
      { attribute: 'read_only', value: 'yes' },
    ]);
    expect(config.get('res_ari', 'user', 'demo')[2]).toEqual({ attribute: 'read_only', value: 'no' });
    expectSimError(
      () => config.update('res_ari', 'user', 'viewer', fields(['read_only', 'no'])),
      403,
      "Cannot update sorcery objects of type 'user'",
    );
    expectSimError(
      () => config.update('res_ari', 'user', 'newuser', fields(['password', 'x'])),
      403,
      "Cannot create sorcery objects of type 'user'",
    );
    expectSimError(
      () => config.update('res_ari', 'user', 'viewer', undefined),
      400,
      "Fields must be provided to update object 'viewer'",
    );
    expectSimError(
      () => config.update('res_ari', 'user', 'viewer', fields(['read_only', 'notabool'])),
      403,
      "Cannot update sorcery objects of type 'user'",
    );
    expectSimError(
      () => config.update('res_ari', 'user', 'viewer', fields(['password_format', 'rot13'])),
      400,
      "Update of object 'viewer' failed field value validation",
    );
    expectSimError(
      () => config.delete('res_ari', 'user', 'viewer'),
      403,
      "Could not delete object with id 'viewer'",
    );
    expectSimError(() => config.get('res_ari', 'user', 'nobody'), 404, "Object with id 'nobody' not found");
  });

  it('shows the traced ARI general section', () => {
    const { config } = setup();
    expect(config.get('res_ari', 'general', 'general')).toEqual([
      { attribute: 'websocket_write_timeout', value: '100' },
      { attribute: 'allowed_origins', value: '*' },
      { attribute: 'pretty', value: 'no' },
      { attribute: 'auth_realm', value: 'Asterisk REST Interface' },
      { attribute: 'channelvars', value: '' },
      { attribute: 'enabled', value: 'yes' },
    ]);
    expectSimError(
      () => config.update('res_ari', 'general', 'general', fields(['websocket_write_timeout', '0'])),
      400,
      "Update of object 'general' failed field value validation",
    );
  });

  it('validates geolocation locations before refusing to create them in the config file', () => {
    const { config } = setup();
    expectSimError(
      () => config.get('res_geolocation', 'location', 'oracle-loc'),
      404,
      "Object with id 'oracle-loc' not found",
    );
    expectSimError(
      () => config.update('res_geolocation', 'location', 'oracle-loc', fields(['format', 'GML'])),
      400,
      "Creation of object 'oracle-loc' failed field value validation",
    );
    expectSimError(
      () =>
        config.update(
          'res_geolocation',
          'location',
          'oracle-loc',
          fields(['format', 'gml'], ['location_info', 'shape=Point, crs=2d, pos=-48.05 12.1']),
        ),
      403,
      "Cannot create sorcery objects of type 'location'",
    );
    expectSimError(
      () =>
        config.update(
          'res_geolocation',
          'location',
          'u',
          fields(['format', 'URI'], ['location_info', 'URI=https://x']),
        ),
      403,
      "Cannot create sorcery objects of type 'location'",
    );
    expectSimError(
      () =>
        config.update(
          'res_geolocation',
          'location',
          'c',
          fields(['format', 'civicAddress'], ['location_info', 'zip=1']),
        ),
      400,
      "Creation of object 'c' failed field value validation",
    );
  });

  it('serves configured geolocation locations', () => {
    const config = new DynamicConfig({
      locations: { hq: { format: 'URI', location_info: 'URI=https://example.com/hq' } },
    });
    expect(config.get('res_geolocation', 'location', 'hq')).toEqual([
      { attribute: 'format', value: 'URI' },
      { attribute: 'location_info', value: 'URI=https://example.com/hq' },
      { attribute: 'location_source', value: '' },
      { attribute: 'method', value: '' },
      { attribute: 'confidence', value: '' },
    ]);
  });

  it('has a class only while its module runs', () => {
    const modules = new ModuleRegistry({
      modules: defaultModules.map((m) => (m.name === 'res_mwi_external.so' ? { ...m, useCount: 0 } : m)),
    });
    const { config } = setup(modules);
    modules.unload('res_mwi_external');
    expectSimError(
      () => config.get('res_mwi_external', 'mailboxes', 'x'),
      404,
      "configClass 'res_mwi_external' not found",
    );
    modules.load('res_mwi_external');
    expectSimError(
      () => config.get('res_mwi_external', 'mailboxes', 'x'),
      404,
      "Object with id 'x' not found",
    );
  });

  it('has no MWI class without a mailbox store, and accepts extra classes', () => {
    const config = new DynamicConfig({
      classes: [
        {
          name: 'res_custom',
          types: [
            { name: 'thing', fields: [stringField('color', 'blue')], store: new ConfigFileStore({ t1: {} }) },
          ],
        },
      ],
    });
    expectSimError(
      () => config.get('res_mwi_external', 'mailboxes', 'x'),
      404,
      "configClass 'res_mwi_external' not found",
    );
    expect(config.get('res_custom', 'thing', 't1')).toEqual([{ attribute: 'color', value: 'blue' }]);
  });
});
