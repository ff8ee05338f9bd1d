import { LiveRecording } from './LiveRecording.ts';
import type { SimChannel } from './SimChannel.ts';
import { SimPlayback } from './SimPlayback.ts';

/**
 * Ends everything playing to or recording a channel (hangup, leaving the application):
 * playbacks finish, a live recording is stored as it is.
 */
export function stopChannelMedia(ch: SimChannel): void {
  const jobs = ch.mediaQueue;
  if (!jobs) return;
  // Queued jobs first, so ending the running one does not start the next.
  for (const job of [...jobs].reverse()) {
    if (job instanceof SimPlayback) job.stop();
    else if (job instanceof LiveRecording) job.fail('Channel hung up');
  }
  ch.mediaQueue = undefined;
  ch.silence = false;
  ch.mohClass = undefined;
}

/** Other media starting on a channel ends its silence generator. */
export function otherMediaStarts(ch: SimChannel): void {
  ch.silence = false;
}
