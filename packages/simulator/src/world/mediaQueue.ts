/** One piece of media work on a channel or bridge: a playback or a live recording. */
export interface MediaJob {
  /** Starts the job; called when it reaches the head of its target's queue. */
  begin(): void;
  /** True while the job sends sound to its target (a playback that plays; never a recording). */
  sounding(): boolean;
}

/** A channel or bridge: media jobs run on it one after the other. */
export interface MediaTarget {
  mediaQueue: MediaJob[] | undefined;
}

/**
 * Queues a job on a target. Like the real server's control queue, one job runs at a time: a
 * second play waits until the first finishes, a play sent while recording starts afterwards.
 */
export function enqueueMedia(target: MediaTarget, job: MediaJob): void {
  target.mediaQueue ??= [];
  target.mediaQueue.push(job);
  if (target.mediaQueue.length === 1) job.begin();
}

/** Removes a finished or cancelled job; when it was running, the next one begins. */
export function finishMedia(target: MediaTarget, job: MediaJob): void {
  const queue = target.mediaQueue;
  if (!queue) return;
  const index = queue.indexOf(job);
  if (index < 0) return;
  queue.splice(index, 1);
  if (queue.length === 0) target.mediaQueue = undefined;
  else if (index === 0) queue[0]!.begin();
}

/** True when the job is the one running on its target. */
export function isRunning(target: MediaTarget, job: MediaJob): boolean {
  return target.mediaQueue?.[0] === job;
}
