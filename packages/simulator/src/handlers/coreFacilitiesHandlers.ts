import { SimError } from '../SimError.ts';
import { type HandlerTable, NO_CONTENT, ok, optStr, str } from './HandlerContext.ts';

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
