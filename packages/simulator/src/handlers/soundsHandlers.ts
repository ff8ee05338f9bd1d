import { type HandlerTable, ok, optStr, str } from './HandlerContext.ts';

/** Handlers of `/sounds`, over the sound catalogue. */
export const soundsHandlers: HandlerTable = {
  list: ({ facilities, params }) =>
    ok(facilities.sounds.list({ lang: optStr(params, 'lang'), format: optStr(params, 'format') })),
  get: ({ facilities, params }) => ok(facilities.sounds.get(str(params, 'soundId'))),
};
