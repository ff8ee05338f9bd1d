import { SimError } from '../SimError.ts';
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

/** Handlers of `/mailboxes`, over the mailbox store (effective while the external MWI module runs). */
export const mailboxesHandlers: HandlerTable = {
  list: ({ facilities }) => ok(facilities.mailboxes.list()),
  get: ({ facilities, params }) => ok(facilities.mailboxes.get(str(params, 'mailboxName'))),
  update: ({ facilities, params, request }) => {
    // The store takes the raw values: a non-numeric count is 0, as on the real server.
    const raw = (name: string) => request.query[name] ?? (params[name] as number | undefined);
    facilities.mailboxes.update(str(params, 'mailboxName'), raw('oldMessages'), raw('newMessages'));
    return NO_CONTENT;
  },
  delete: ({ facilities, params }) => {
    facilities.mailboxes.delete(str(params, 'mailboxName'));
    return NO_CONTENT;
  },
};

/** Handlers of `/sounds`, over the sound catalogue. */
export const soundsHandlers: HandlerTable = {
  list: ({ facilities, params }) =>
    ok(facilities.sounds.list({ lang: optStr(params, 'lang'), format: optStr(params, 'format') })),
  get: ({ facilities, params }) => ok(facilities.sounds.get(str(params, 'soundId'))),
};

/** The server-level facilities of `/asterisk` (`/core`): log channels and dynamic configuration. */
export const coreFacilitiesHandlers: HandlerTable = {
  listLogChannels: ({ facilities }) => ok(facilities.logChannels.list()),
  addLog: ({ facilities, params }) => {
    facilities.logChannels.add(str(params, 'logChannelName'), optStr(params, 'configuration'));
    return NO_CONTENT;
  },
  deleteLog: ({ facilities, params }) => {
    facilities.logChannels.delete(str(params, 'logChannelName'));
    return NO_CONTENT;
  },
  rotateLog: ({ facilities, params }) => {
    facilities.logChannels.rotate(str(params, 'logChannelName'));
    return NO_CONTENT;
  },
  getObject: ({ facilities, params }) =>
    ok(
      facilities.dynamicConfig.get(str(params, 'configClass'), str(params, 'objectType'), str(params, 'id')),
    ),
  updateObject: ({ facilities, params, request }) => {
    if (request.body !== undefined && (typeof request.body !== 'object' || request.body === null)) {
      throw new SimError(400, 'Error parsing request body');
    }
    return ok(
      facilities.dynamicConfig.update(
        str(params, 'configClass'),
        str(params, 'objectType'),
        str(params, 'id'),
        request.body,
      ),
    );
  },
  deleteObject: ({ facilities, params }) => {
    facilities.dynamicConfig.delete(str(params, 'configClass'), str(params, 'objectType'), str(params, 'id'));
    return NO_CONTENT;
  },
};
