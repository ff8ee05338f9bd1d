/** Operations after which the channel they name is on its way out of the application. */
const LEAVING_OPERATIONS = new Set([
  'channels.hangup',
  'channels.continueInDialplan',
  'channels.move',
  'channels.redirect',
]);

/** Operations that start a live recording named by their `name` parameter. */
const RECORD_OPERATIONS = new Set(['channels.record', 'bridges.record']);

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
 * The name of the live recording the request starts, if it starts one (a channel's or a
 * bridge's `record`).
 *
 * @example recordingStartedBy('bridges.record', { bridgeId: 'b-1', name: 'room-1' }) // 'room-1'
 */
export function recordingStartedBy(
  operation: string,
  params: Readonly<Record<string, unknown>>,
): string | undefined {
  return RECORD_OPERATIONS.has(operation) && typeof params.name === 'string' ? params.name : undefined;
}
