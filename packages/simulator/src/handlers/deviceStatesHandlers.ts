import { type HandlerTable, NO_CONTENT, ok, optStr, str } from './HandlerContext.ts';

/** Handlers of `/deviceStates`, over the device-state store (its changes become DeviceStateChanged). */
export const deviceStatesHandlers: HandlerTable = {
  list: ({ facilities }) => ok(facilities.deviceStates.list()),
  get: ({ facilities, params }) => ok(facilities.deviceStates.get(str(params, 'deviceName'))),
  update: ({ facilities, params }) => {
    facilities.deviceStates.update(str(params, 'deviceName'), optStr(params, 'deviceState'));
    return NO_CONTENT;
  },
  delete: ({ facilities, params }) => {
    facilities.deviceStates.delete(str(params, 'deviceName'));
    return NO_CONTENT;
  },
};
