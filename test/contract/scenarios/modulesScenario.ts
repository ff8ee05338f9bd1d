import { expect } from 'vitest';
import { httpFailure } from '../httpFailure.ts';
import type { Scenario } from '../Scenario.ts';

/** Reference scenario 14: module names with and without `.so`, load/unload/reload rules. */
export const modulesScenario: Scenario = {
  name: 'modules: get, unload, load, reload and their refusals',
  async run(s) {
    const modules = await s.rest.asterisk.listModules();
    expect(modules.length).toBeGreaterThan(10);
    expect(modules[0]).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      use_count: expect.any(Number),
      status: expect.any(String),
      support_level: expect.any(String),
    });
    const info = { status: 409, message: 'Module information could not be retrieved' };
    const notRunning = { status: 404, message: 'Module not found in running modules' };
    expect(await httpFailure(s.rest.module('res_ari_mailboxes').getModule())).toEqual(info);
    expect(await s.rest.module('res_ari_mailboxes.so').getModule()).toMatchObject({
      name: 'res_ari_mailboxes.so',
      status: 'Running',
    });
    expect(await httpFailure(s.rest.module('no_such_module').getModule())).toEqual({
      status: 404,
      message: 'Module could not be found in running modules',
    });
    expect(await httpFailure(s.rest.module('app_userevent').loadModule())).toEqual({
      status: 409,
      message: 'Module is already loaded',
    });
    await s.rest.module('app_userevent').unloadModule();
    expect(await httpFailure(s.rest.module('app_userevent').getModule())).toEqual({
      status: 404,
      message: 'Module could not be found in running modules',
    });
    expect(await httpFailure(s.rest.module('app_userevent').unloadModule())).toEqual(notRunning);
    expect(await httpFailure(s.rest.module('app_userevent').reloadModule())).toEqual(notRunning);
    await s.rest.module('app_userevent').loadModule();
    expect(await s.rest.module('app_userevent.so').getModule()).toMatchObject({ name: 'app_userevent.so' });
    await s.rest.module('res_musiconhold').reloadModule();
    await s.rest.module('res_musiconhold.so').reloadModule();
    expect(await httpFailure(s.rest.module('app_userevent').reloadModule())).toEqual({
      status: 409,
      message: 'Module does not support reloading',
    });
    expect(await httpFailure(s.rest.module('no_such_module').reloadModule())).toEqual(notRunning);
    expect(await httpFailure(s.rest.module('no_such_module').unloadModule())).toEqual(notRunning);
    expect(await httpFailure(s.rest.module('no_such_module').loadModule())).toEqual({
      status: 409,
      message: 'Module load declined',
    });
  },
};
