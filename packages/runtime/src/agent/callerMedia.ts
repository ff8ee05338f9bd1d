import type { AgentInput } from './AgentServices.ts';
import type { RelayIds } from './TextRelay.ts';

/** What a relay made on the server, to be removed at the end. */
export interface MadeMedia {
  bridge: boolean;
  mediaChannel: boolean;
}

/**
 * Makes the session's mixing bridge and its external media channel (`transport=websocket`,
 * `encapsulation=none`, `connection_type=server`, slin16) with the ids the session owns, and
 * returns the channel's `MEDIA_WEBSOCKET_CONNECTION_ID` (what the media socket connects in with).
 * Both relays set their media up with it.
 */
export async function makeMediaChannel(input: AgentInput, ids: RelayIds, made: MadeMedia): Promise<string> {
  const { ari, application } = input;
  await ari.bridges.createWithId({ bridgeId: ids.bridgeId, type: 'mixing' });
  made.bridge = true;
  const channel = await ari.channels.externalMedia({
    channelId: ids.mediaChannelId,
    app: application,
    transport: 'websocket',
    encapsulation: 'none',
    connection_type: 'server',
    format: 'slin16',
  });
  made.mediaChannel = true;
  const connectionId = String(channel.channelvars?.MEDIA_WEBSOCKET_CONNECTION_ID ?? '');
  if (connectionId === '')
    throw new Error('the server gave the media channel no MEDIA_WEBSOCKET_CONNECTION_ID');
  return connectionId;
}

/** Bridges the caller with the media channel (once it entered the application and its socket started). */
export async function bridgeCallerWithMedia(input: AgentInput, ids: RelayIds): Promise<void> {
  await input.ari.bridges.addChannel({
    bridgeId: ids.bridgeId,
    channel: [input.call.channelId, ids.mediaChannelId],
  });
}

/**
 * Removes the media channel and the bridge (the caller goes on with the flow). Failures here are
 * the server's cleanup's business.
 */
export async function removeMediaChannel(input: AgentInput, ids: RelayIds, made: MadeMedia): Promise<void> {
  const { ari } = input;
  await Promise.allSettled([
    made.mediaChannel ? ari.channels.hangup({ channelId: ids.mediaChannelId }) : undefined,
    made.bridge ? ari.bridges.destroy({ bridgeId: ids.bridgeId }) : undefined,
  ]);
}

/** The fields of `setup.call`: the call's id, caller, extension and language. */
export function setupCallOf(input: AgentInput) {
  const { call, settings } = input;
  const language = settings.language ?? call.language;
  return {
    id: call.channelId,
    ...(call.caller ? { caller: call.caller } : {}),
    ...(call.extension !== undefined ? { extension: call.extension } : {}),
    ...(language !== undefined ? { language } : {}),
  };
}
