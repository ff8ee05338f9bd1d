import { HttpError, type ResourceKind } from '@ringflow/client';

/**
 * Operations after which the channel they name is on its way out of the application (for tools
 * that tell a caller's hang-up from the application's: the dev console).
 */
export const LEAVING_OPERATIONS: ReadonlySet<string> = new Set([
  'channels.hangup',
  'channels.continueInDialplan',
  'channels.move',
  'channels.redirect',
]);

/**
 * Operations that create a resource, with its kind and the parameter naming it (a channel's or
 * a bridge's `record` starts a live recording named by `name`; a snoop is a channel).
 */
const CREATING_OPERATIONS = new Map<string, { readonly kind: ResourceKind; readonly param: string }>([
  ['channels.play', { kind: 'playback', param: 'playbackId' }],
  ['channels.playWithId', { kind: 'playback', param: 'playbackId' }],
  ['bridges.play', { kind: 'playback', param: 'playbackId' }],
  ['bridges.playWithId', { kind: 'playback', param: 'playbackId' }],
  ['channels.record', { kind: 'recording', param: 'name' }],
  ['bridges.record', { kind: 'recording', param: 'name' }],
  ['channels.originate', { kind: 'channel', param: 'channelId' }],
  ['channels.originateWithId', { kind: 'channel', param: 'channelId' }],
  ['channels.create', { kind: 'channel', param: 'channelId' }],
  ['channels.externalMedia', { kind: 'channel', param: 'channelId' }],
  ['channels.snoopChannel', { kind: 'channel', param: 'snoopId' }],
  ['channels.snoopChannelWithId', { kind: 'channel', param: 'snoopId' }],
  ['bridges.create', { kind: 'bridge', param: 'bridgeId' }],
  ['bridges.createWithId', { kind: 'bridge', param: 'bridgeId' }],
]);

/**
 * True when the request takes the channel `channelId` out of the application (hang up, continue
 * in the dialplan, move to another application, redirect).
 *
 * @example takesChannelOut('channels.hangup', { channelId: 'c-1' }, 'c-1') // true
 */
export function takesChannelOut(
  operation: string,
  params: Readonly<Record<string, unknown>>,
  channelId: string,
): boolean {
  return params.channelId === channelId && LEAVING_OPERATIONS.has(operation);
}

/**
 * The resource a request creates, if it creates one with an id it names: once it succeeded, the
 * server has it (a live recording: it is recording).
 *
 * @example resourceCreatedBy('bridges.record', { bridgeId: 'b-1', name: 'room-1' }) // { kind: 'recording', id: 'room-1' }
 */
export function resourceCreatedBy(
  operation: string,
  params: Readonly<Record<string, unknown>>,
): { readonly kind: ResourceKind; readonly id: string } | undefined {
  const creates = CREATING_OPERATIONS.get(operation);
  if (creates === undefined) return undefined;
  const id = params[creates.param];
  return typeof id === 'string' ? { kind: creates.kind, id } : undefined;
}

/**
 * True for the server's refusal of a request on a channel that is not in the application (409
 * "Channel not in Stasis application", as a real server words it).
 *
 * @example leftTheApplication(error) // true for POST /channels/c-1/play answered 409 "Channel not in Stasis application"
 */
export function leftTheApplication(error: unknown): boolean {
  return (
    error instanceof HttpError &&
    error.status === 409 &&
    error.serverMessage === 'Channel not in Stasis application'
  );
}
