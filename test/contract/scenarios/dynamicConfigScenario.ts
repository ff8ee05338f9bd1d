import { expect } from 'vitest';
import type { Scenario } from '../Scenario.ts';

/**
 * Reference scenario 16: astdb-backed objects (external mailboxes) can be created and deleted;
 * objects backed by configuration files are read-only (403); unknown classes and types are 404.
 */
export const dynamicConfigScenario: Scenario = {
  name: 'dynamic config: astdb objects created and deleted, file-backed objects 403, unknown 404',
  async run(s) {
    const id = s.id('dyn');
    const path = `/asterisk/config/dynamic/res_mwi_external/mailboxes/${id}`;
    expect(await s.send('GET', path)).toMatchObject({
      status: 404,
      message: `Object with id '${id}' not found`,
    });
    const fields = [
      { attribute: 'msgs_new', value: '3' },
      { attribute: 'msgs_old', value: '4' },
    ];
    expect(
      await s.rest.asterisk.updateObject({
        configClass: 'res_mwi_external',
        objectType: 'mailboxes',
        id,
        fields,
      }),
    ).toEqual(fields);
    expect(
      await s.rest.asterisk.getObject({ configClass: 'res_mwi_external', objectType: 'mailboxes', id }),
    ).toEqual(fields);
    // The same object through the mailboxes resource.
    expect(await s.rest.mailbox(id).get()).toEqual({ name: id, old_messages: 4, new_messages: 3 });
    expect(
      await s.send('PUT', path, {}, { fields: [{ attribute: 'no_such_field', value: '1' }] }),
    ).toMatchObject({
      status: 400,
      message: `Update of object '${id}' failed field value validation`,
    });
    expect(await s.send('DELETE', path)).toMatchObject({ status: 204 });
    expect(await s.send('DELETE', path)).toMatchObject({
      status: 404,
      message: `Object with id '${id}' not found`,
    });

    expect(await s.send('GET', '/asterisk/config/dynamic/res_mwi_external/no_such_type/x')).toMatchObject({
      status: 404,
      message: "objectType 'no_such_type' not found",
    });
    expect(await s.send('GET', '/asterisk/config/dynamic/no_such_class/x/y')).toMatchObject({
      status: 404,
      message: "configClass 'no_such_class' not found",
    });
    expect(await s.send('GET', '/asterisk/config/dynamic/res_ari/general/general')).toMatchObject({
      status: 200,
    });
    const user = s.id('newuser');
    expect(
      await s.send(
        'PUT',
        `/asterisk/config/dynamic/res_ari/user/${user}`,
        {},
        { fields: [{ attribute: 'password', value: 'x' }] },
      ),
    ).toMatchObject({ status: 403, message: "Cannot create sorcery objects of type 'user'" });
  },
};
