import { operationKey } from '../description/index.ts';
import type { OperationSpec } from '../description/spec.ts';

/** Path parameters that address a resource which disappears on its own (hangup, end of media). */
const GONE_PARAMS = new Set(['channelId', 'bridgeId', 'playbackId', 'recordingName']);

/** Operations that create the resource their path names: a 404 there cannot mean "it is gone". */
const CREATING = new Set(['channels.originateWithId', 'bridges.createWithId']);

/**
 * Operations whose 404 may name something else than the addressed resource: a missing variable
 * ("Provided variable was not found") or dialplan label ("Requested label can not be found").
 * For these, and only these, the server's message tells which thing was missing.
 */
const NOT_FOUND_MAY_NAME_OTHER = new Set([
  'channels.getChannelVar',
  'channels.getChannelVars',
  'channels.continueInDialplan',
  'bridges.getBridgeVar',
  'bridges.getBridgeVars',
]);

/**
 * Decides whether a 404 reply to `op` means that the channel, bridge, playback or recording the
 * operation addresses (by path parameter) no longer exists. The answer comes from the operation,
 * so callers never match message text themselves.
 *
 * @example
 * notFoundMeansGone(findOperation('channels', 'answer')!, 'Channel not found');               // true
 * notFoundMeansGone(findOperation('channels', 'getChannelVar')!, 'Provided variable was not found'); // false
 */
export function notFoundMeansGone(op: OperationSpec, serverMessage: string): boolean {
  const key = operationKey(op.resource, op.name);
  if (CREATING.has(key)) return false;
  if (!op.params.some((p) => p.in === 'path' && GONE_PARAMS.has(p.name))) return false;
  if (NOT_FOUND_MAY_NAME_OTHER.has(key))
    return /\b(channel|bridge|playback|recording)\b.*\bnot found\b/i.test(serverMessage);
  return true;
}
