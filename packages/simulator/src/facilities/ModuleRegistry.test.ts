import { describe, expect, it } from 'vitest';
import { expectSimError } from './expectSimError.ts';
import { type ModuleChange, ModuleRegistry } from './ModuleRegistry.ts';
import type { ModuleSpec } from './ModuleSpec.ts';

describe('ModuleRegistry', () => {
  it('lists the stock modules with the traced record shape', () => {
    const modules = new ModuleRegistry();
    const list = modules.list();
    expect(list.length).toBeGreaterThan(200);
    expect(list[0]).toEqual({
      name: 'acl',
      description: 'Named ACL system',
      use_count: 2,
      status: 'Running',
      support_level: 'core',
    });
    const names = list.map((m) => m.name);
    for (const name of ['app_userevent.so', 'res_ari_mailboxes.so', 'res_mwi_external.so', 'app_stasis.so']) {
      expect(names).toContain(name);
    }
  });

  it('answers GET only for the exact listed name (the traced .so asymmetry)', () => {
    const modules = new ModuleRegistry();
    expectSimError(() => modules.get('res_ari_mailboxes'), 409, 'Module information could not be retrieved');
    expect(modules.get('res_ari_mailboxes.so')).toEqual({
      name: 'res_ari_mailboxes.so',
      description: 'RESTful API module - Mailboxes resources',
      use_count: 0,
      status: 'Running',
      support_level: 'core',
    });
    // A part of the core is listed without .so, so the asymmetry is reversed.
    expect(modules.get('logger').name).toBe('logger');
    expectSimError(() => modules.get('logger.so'), 409, 'Module information could not be retrieved');
    expectSimError(() => modules.get('no_such_module'), 404, 'Module could not be found in running modules');
  });

  it('unloads, refuses to act on the unloaded module, and loads it back (traced sequence)', () => {
    const modules = new ModuleRegistry();
    expectSimError(() => modules.load('app_userevent'), 409, 'Module is already loaded');
    modules.unload('app_userevent');
    expect(modules.isLoaded('app_userevent')).toBe(false);
    expect(modules.list().map((m) => m.name)).not.toContain('app_userevent.so');
    expectSimError(() => modules.get('app_userevent'), 404, 'Module could not be found in running modules');
    expectSimError(() => modules.unload('app_userevent'), 404, 'Module not found in running modules');
    expectSimError(() => modules.reload('app_userevent'), 404, 'Module not found in running modules');
    modules.load('app_userevent');
    expect(modules.isLoaded('app_userevent.so')).toBe(true);
    expect(modules.get('app_userevent.so').status).toBe('Running');
    expectSimError(() => modules.load('app_userevent.so'), 409, 'Module is already loaded');
  });

  it('reloads modules that support it, with or without .so, and refuses the others', () => {
    const modules = new ModuleRegistry();
    modules.reload('res_musiconhold');
    modules.reload('res_musiconhold.so');
    modules.reload('logger');
    expectSimError(() => modules.reload('app_userevent'), 409, 'Module does not support reloading');
    expectSimError(() => modules.reload('no_such_module'), 404, 'Module not found in running modules');
  });

  it('declines to load an unknown module and 404s its unload', () => {
    const modules = new ModuleRegistry();
    expectSimError(() => modules.load('no_such_module'), 409, 'Module load declined');
    expectSimError(() => modules.unload('no_such_module'), 404, 'Module not found in running modules');
  });

  it('refuses to unload a module in use or a part of the core', () => {
    const modules = new ModuleRegistry();
    expectSimError(() => modules.unload('res_mwi_external'), 409, 'Module could not be unloaded');
    expectSimError(() => modules.unload('res_ari.so'), 409, 'Module could not be unloaded');
    expectSimError(() => modules.unload('logger'), 409, 'Module could not be unloaded');
    expect(modules.isLoaded('res_mwi_external')).toBe(true);
  });

  it('matches names ignoring case for the running check, but loads only the exact file name', () => {
    const modules = new ModuleRegistry();
    expect(modules.isLoaded('APP_USEREVENT')).toBe(true);
    expectSimError(() => modules.get('APP_USEREVENT.so'), 409, 'Module information could not be retrieved');
    modules.unload('APP_USEREVENT.so');
    expectSimError(() => modules.load('APP_USEREVENT'), 409, 'Module load declined');
    modules.load('app_userevent');
  });

  it('lists a module that declined at start-up as Not Running and keeps declining it', () => {
    const specs: ModuleSpec[] = [
      { name: 'res_ok.so', description: 'Fine', useCount: 0, supportLevel: 'core', reloadable: false },
      {
        name: 'res_broken.so',
        description: 'Needs a config file',
        useCount: 0,
        supportLevel: 'extended',
        reloadable: true,
        running: false,
        loadable: false,
      },
      {
        name: 'res_later.so',
        description: 'Off',
        useCount: 0,
        supportLevel: 'core',
        reloadable: false,
        running: false,
      },
    ];
    const modules = new ModuleRegistry({ modules: specs });
    expect(modules.list().map((m) => [m.name, m.status])).toEqual([
      ['res_ok.so', 'Running'],
      ['res_broken.so', 'Not Running'],
      ['res_later.so', 'Not Running'],
    ]);
    expectSimError(() => modules.get('res_broken.so'), 404, 'Module could not be found in running modules');
    expectSimError(() => modules.load('res_broken'), 409, 'Module load declined');
    modules.load('res_later');
    expect(modules.get('res_later.so').status).toBe('Running');
  });

  it('tells listeners about loads, unloads and reloads, and stops when asked', () => {
    const modules = new ModuleRegistry();
    const seen: ModuleChange[] = [];
    const off = modules.onChange((c) => seen.push(c));
    modules.unload('app_userevent');
    modules.load('app_userevent');
    modules.reload('logger');
    expect(() => modules.reload('app_userevent')).toThrow();
    off();
    modules.unload('app_userevent');
    expect(seen).toEqual([
      { name: 'app_userevent.so', action: 'unloaded' },
      { name: 'app_userevent.so', action: 'loaded' },
      { name: 'logger', action: 'reloaded' },
    ]);
  });

  it('rejects a module table that names a module twice', () => {
    const spec: ModuleSpec = {
      name: 'x.so',
      description: '',
      useCount: 0,
      supportLevel: 'core',
      reloadable: false,
    };
    expect(() => new ModuleRegistry({ modules: [spec, { ...spec, name: 'X' }] })).toThrow(/listed twice/);
  });
});
