import type { OperationSpec } from '@ringflow/client';
import type { Facilities } from '../world/Facilities.ts';
import type { World } from '../world/World.ts';
import type { Refusal } from './operationRules.ts';

/**
 * Operations of the real server that check their parameters before they look up the resource of
 * their path (the rest look it up first, as `res/ari/resource_*.c` do: `find_control`,
 * `find_bridge`, ... then the parameters). Facts from the recorded bad-input exchanges: a missing
 * `variable`, snoop direction, `eventSource` or playback `operation` is refused with 400 even
 * when the channel, application or playback does not exist.
 */
export const CHECKS_BEFORE_LOOKUP: ReadonlySet<string> = new Set([
  'channels.getChannelVar',
  'channels.setChannelVar',
  'channels.getChannelVars',
  'channels.setChannelVars',
  'channels.snoopChannel',
  'channels.snoopChannelWithId',
  // These create the resource their path names: there is nothing to look up.
  'channels.originateWithId',
  'bridges.createWithId',
  'applications.subscribe',
  'applications.unsubscribe',
  'playbacks.control',
  'events.userEvent',
]);

/**
 * The 404 the real server answers for a request whose path names a resource that does not exist,
 * when that lookup comes before the parameter checks of the operation; `undefined` when the
 * resource exists or the operation checks its parameters first. Asked only when a parameter is
 * refused, so the handler's own lookup stays the one that answers otherwise.
 *
 * @example
 * missingResource(bridgesPlay, { bridgeId: 'gone' }, world, facilities); // [404, 'Bridge not found']
 */
export function missingResource(
  op: OperationSpec,
  pathParams: Readonly<Record<string, string>>,
  world: World,
  facilities: Facilities,
): Refusal | undefined {
  if (CHECKS_BEFORE_LOOKUP.has(`${op.resource}.${op.name}`)) return undefined;
  const { channelId, bridgeId, playbackId, recordingName, tech, resource } = pathParams;
  if (op.resource === 'channels' && channelId !== undefined) {
    const ch = world.channel(channelId);
    return !ch || ch.hangingUp ? [404, 'Channel not found'] : undefined;
  }
  if (op.resource === 'bridges' && bridgeId !== undefined) {
    return world.bridges.has(bridgeId) ? undefined : [404, 'Bridge not found'];
  }
  if (op.resource === 'playbacks' && playbackId !== undefined) {
    return world.playbacks.has(playbackId) ? undefined : [404, 'Playback not found'];
  }
  if (op.resource === 'recordings' && recordingName !== undefined) {
    const exists = op.path.startsWith('/recordings/live/')
      ? world.recordings.has(recordingName)
      : facilities.recordings.exists(recordingName);
    return exists ? undefined : [404, 'Recording not found'];
  }
  if (op.resource === 'endpoints' && tech !== undefined && resource !== undefined) {
    return world.endpoints.get(tech, resource) ? undefined : [404, 'Endpoint not found'];
  }
  return undefined;
}
