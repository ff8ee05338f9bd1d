import { isResourceGone } from '@ringflow/client/interface';

/**
 * The rules of playing a prompt, in one place for the runtime's `play` call actor and the flow
 * language's prompts (`play`, `menu`, `gather`...): how a playback's end is read, and what a
 * barge-in stop that loses the race with the prompt's own end means.
 */

/** How a playback ended, as its `PlaybackFinished` says: `failed` for media the server could not play. */
export type PlaybackEnd = 'finished' | 'failed';

/**
 * How the playback `playbackId` ended, when `event` is its `PlaybackFinished`; undefined for any
 * other event. A real server ends a playback of a missing sound with state `failed` (recorded:
 * `sound:no-such-file`), not with an error to the play request.
 */
export function playbackEnd(
  event: { readonly type: string; readonly playback?: { readonly id?: string; readonly state?: string } },
  playbackId: string,
): PlaybackEnd | undefined {
  if (event.type !== 'PlaybackFinished' || event.playback?.id !== playbackId) return undefined;
  return event.playback.state === 'failed' ? 'failed' : 'finished';
}

/**
 * Stops a prompt on barge-in. A prompt that ended on its own while the stop was on its way is
 * answered 404: a normal race with the same outcome, reported as `ended` (worth a trace, not a
 * warning); any other refusal is thrown.
 */
export async function stopPrompt(stop: () => Promise<unknown>): Promise<'stopped' | 'ended'> {
  try {
    await stop();
    return 'stopped';
  } catch (error) {
    if (isResourceGone(error)) return 'ended';
    throw error;
  }
}
