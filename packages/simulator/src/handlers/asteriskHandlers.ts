import { formatTimestamp } from '@ringflow/client';
import { type HandlerTable, list, NO_CONTENT, ok, str } from './HandlerContext.ts';

/** Handlers of the server-level resource (`/asterisk`, also served as `/core`). */
export const asteriskHandlers: HandlerTable = {
  ping: ({ world, bus }) => ok({ ping: 'pong', timestamp: world.now(), asterisk_id: bus.asteriskId }),

  getInfo: ({ world, bus, params }) => {
    const started = formatTimestamp(world.startedAt);
    const all: Record<string, unknown> = {
      build: {
        os: 'Linux',
        kernel: 'ringflow-simulator',
        machine: 'x86_64',
        options: 'OPTIONAL_API',
        date: started.slice(0, 10),
        user: 'ringflow',
      },
      system: { version: 'ringflow-simulator', entity_id: bus.asteriskId },
      config: { name: '', default_language: 'en', setid: { user: '', group: '' } },
      status: { startup_time: started, last_reload_time: started },
    };
    const only = list(params, 'only');
    if (only.length === 0) return ok(all);
    // Unknown sections are left out, not refused: `only=bogus` gives `{}` on the real server.
    return ok(Object.fromEntries(Object.entries(all).filter(([k]) => only.includes(k))));
  },

  getGlobalVar: ({ world, params }) => ok({ value: world.globals.get(str(params, 'variable')) ?? '' }),

  setGlobalVar: ({ world, params }) => {
    world.setGlobalVar(str(params, 'variable'), str(params, 'value'));
    return NO_CONTENT;
  },

  listModules: ({ facilities }) => ok(facilities.modules.list()),
  getModule: ({ facilities, params }) => ok(facilities.modules.get(str(params, 'moduleName'))),
  loadModule: ({ facilities, params }) => {
    facilities.modules.load(str(params, 'moduleName'));
    return NO_CONTENT;
  },
  unloadModule: ({ facilities, params }) => {
    facilities.modules.unload(str(params, 'moduleName'));
    return NO_CONTENT;
  },
  reloadModule: ({ facilities, params }) => {
    facilities.modules.reload(str(params, 'moduleName'));
    return NO_CONTENT;
  },
};
