import {
  formatTimestamp,
  isResourceGone,
  parseStasisAppData,
  type RestClient,
  type StreamEvent,
} from '@ringflow/client';
import type { OwnedResource } from '../session/OwnedResources.ts';

/** What the check needs from the restored session. */
export interface RestoredCall {
  readonly channelId: string;
  readonly app: string | undefined;
  readonly client: RestClient;
  /** The call's clock time: the missed events are stamped with it, as the server stamps events. */
  now(): number;
  owned(): readonly OwnedResource[];
  /** Hands the machine an event it missed, as if the server had sent it. */
  dispatch(event: StreamEvent): void;
  /** The call's own channel is gone: the session ends. */
  mainGone(): void;
  /** A bridge the call owned is gone: forget it. */
  bridgeGone(bridgeId: string): void;
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
 * After a call was restored in this process: the events of its resources sent while no process
 * followed it are lost, so each resource it owns is looked up on the server and the machine is
 * told what it missed, in the words of the events it would have had:
 * - its own channel gone: the session ends (`reconciled`);
 * - a playback gone: `PlaybackFinished` (it played to the end, or never started: either way it
 *   is not played again);
 * - a live recording gone: `RecordingFinished` when it was stored, else `RecordingFailed`; one
 *   that started meanwhile: `RecordingStarted`;
 * - a dialled channel gone: `ChannelDestroyed`; one that entered the application meanwhile:
 *   `StasisStart`;
 * - a bridge gone: forgotten.
 * Returns what it told the machine, for the log.
 */
export async function checkRestoredResources(call: RestoredCall): Promise<string[]> {
  const { client } = call;
  const told: string[] = [];
  const tell = (event: StreamEvent, what: string) => {
    told.push(what);
    call.dispatch(event);
  };
  const main = await ifThere(() => client.channels.get({ channelId: call.channelId }));
  if (!main) {
    call.mainGone();
    return ['the call is gone'];
  }
  const timestamp = formatTimestamp(call.now());
  for (const { kind, id, started } of call.owned()) {
    if (kind === 'playback') {
      const playback = await ifThere(() => client.playbacks.get({ playbackId: id }));
      if (!playback)
        tell(
          { type: 'PlaybackFinished', timestamp, playback: { id, media_uri: '', state: 'done' } },
          `playback ${id} finished`,
        );
    } else if (kind === 'recording') {
      const live = await ifThere(() => client.recordings.getLive({ recordingName: id }));
      if (live && !started)
        tell({ type: 'RecordingStarted', timestamp, recording: live }, `recording ${id} started`);
      if (live) continue;
      const stored = await ifThere(() => client.recordings.getStored({ recordingName: id }));
      if (stored)
        tell(
          {
            type: 'RecordingFinished',
            timestamp,
            recording: { name: id, state: 'done', format: stored.format },
          },
          `recording ${id} finished`,
        );
      else
        tell(
          {
            type: 'RecordingFailed',
            timestamp,
            recording: { name: id, state: 'failed', cause: 'lost while the call moved' },
          },
          `recording ${id} failed`,
        );
    } else if (kind === 'channel' && id !== call.channelId) {
      const channel = await ifThere(() => client.channels.get({ channelId: id }));
      if (!channel) {
        tell(
          {
            type: 'ChannelDestroyed',
            timestamp,
            channel: { id },
            cause: 16,
            cause_txt: 'Normal Clearing',
          },
          `channel ${id} gone`,
        );
        continue;
      }
      const stasis = parseStasisAppData(channel.dialplan ?? {});
      if (!started && stasis && stasis.app === call.app)
        tell(
          {
            type: 'StasisStart',
            timestamp,
            application: stasis.app,
            args: [...stasis.args],
            channel,
          },
          `channel ${id} entered the application`,
        );
    } else if (kind === 'bridge') {
      const bridge = await ifThere(() => client.bridges.get({ bridgeId: id }));
      if (!bridge) call.bridgeGone(id);
    }
  }
  return told;
}
