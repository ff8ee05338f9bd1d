import {
  type Bridge,
  type Channel,
  isResourceGone,
  type LiveRecording,
  type Playback,
  type RestClient,
  type StoredRecording,
} from '@ringflow/client';

/**
 * What the server says of the resources a call waits on: each answer is the resource as the
 * server has it now, or undefined when it is not there (404). Other failures throw: a call whose
 * resources cannot be learned is not told anything (see `recoverCall`).
 */
export interface ServerView {
  channel(id: string): Promise<Channel | undefined>;
  bridge(id: string): Promise<Bridge | undefined>;
  playback(id: string): Promise<Playback | undefined>;
  liveRecording(name: string): Promise<LiveRecording | undefined>;
  storedRecording(name: string): Promise<StoredRecording | undefined>;
}

/** GET that answers undefined for a resource that is not there (404), and throws otherwise. */
async function ifThere<T>(get: () => Promise<T>): Promise<T | undefined> {
  try {
    return await get();
  } catch (error) {
    if (isResourceGone(error)) return undefined;
    throw error;
  }
}

/**
 * The server asked resource by resource (`GET /channels/{id}`, `/playbacks/{id}`, ...): after a
 * call was restored, and when the watchdog finds a wait overdue.
 *
 * @example const view = askServer(link.client); await view.playback('playback-1'); // undefined: it ended
 */
export function askServer(client: RestClient): ServerView {
  return {
    channel: (channelId) => ifThere(() => client.channels.get({ channelId })),
    bridge: (bridgeId) => ifThere(() => client.bridges.get({ bridgeId })),
    playback: (playbackId) => ifThere(() => client.playbacks.get({ playbackId })),
    liveRecording: (recordingName) => ifThere(() => client.recordings.getLive({ recordingName })),
    storedRecording: (recordingName) => ifThere(() => client.recordings.getStored({ recordingName })),
  };
}

/**
 * The server as one listing of its channels and bridges shows it (made once after a gap for every
 * call of the server), asked resource by resource for the rest (playbacks and recordings cannot
 * be listed).
 *
 * @example const view = listedServer(client, await client.channels.list(), await client.bridges.list());
 */
export function listedServer(
  client: RestClient,
  channels: readonly Channel[],
  bridges: readonly Bridge[],
): ServerView {
  const channelById = new Map(channels.map((c) => [c.id, c]));
  const bridgeById = new Map(bridges.map((b) => [b.id, b]));
  return {
    ...askServer(client),
    channel: async (id) => channelById.get(id),
    bridge: async (id) => bridgeById.get(id),
  };
}
