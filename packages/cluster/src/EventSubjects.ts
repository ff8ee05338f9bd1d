import { natsToken } from './natsToken.ts';

/** The JetStream stream of the events of servers reached the classic way. */
export const EVENTS_STREAM = 'RINGFLOW_EVENTS';
/** Every subject of {@link EVENTS_STREAM}: `ringflow.events.<server>.<worker>.<channel>`. */
export const EVENTS_SUBJECTS = 'ringflow.events.>';
/** The last token of the gap marker: the holder changed or reconnected; workers reconcile. */
export const EVENT_GAP = '_gap';
/** The last token of events about no channel. */
const NO_CHANNEL = '_';
/** The header of a StasisStart naming the worker the call is assigned to. */
export const WORKER_HEADER = 'Ringflow-Worker';
/**
 * The header of a hand-over marker: the holder publishes one under a channel's new worker when it
 * learns that the channel's call moved there (a takeover); the channel's earlier events went to
 * the worker before (see `takenOverReplay.ts`).
 */
export const HANDOVER_HEADER = 'Ringflow-Handover';

/**
 * The subject of an event about `channelId` on a server, published for `worker` (tokens made by
 * {@link natsToken}), or of a marker (`special`). Each worker reads its own subject tree only.
 *
 * @example
 * eventSubject(natsToken('pbx1'), 'w1', 'c1'); // 'ringflow.events.cGJ4MQ.dzE.YzE'
 */
export function eventSubject(
  serverToken: string,
  worker: string,
  channelId: string | undefined,
  special?: string,
): string {
  const last = special ?? (channelId === undefined ? NO_CHANNEL : natsToken(channelId));
  return `ringflow.events.${serverToken}.${natsToken(worker)}.${last}`;
}

/** Every event subject of one worker of one server (the subject tree its feed reads). */
export function workerSubjects(serverToken: string, worker: string): string {
  return `ringflow.events.${serverToken}.${natsToken(worker)}.>`;
}

/** The events of one channel, whichever worker they were published for. */
export function channelSubjects(serverToken: string, channelId: string): string {
  return `ringflow.events.${serverToken}.*.${natsToken(channelId)}`;
}

/** The worker token and the last token (channel, `_` or a marker) of an event subject. */
export function subjectParts(subject: string): { readonly worker: string; readonly last: string } {
  const tokens = subject.split('.');
  return { worker: tokens[3] ?? '', last: tokens[4] ?? '' };
}

/** The key of a channel's assignment (the worker driving its call) in the assignment bucket. */
export function assignmentKey(serverToken: string, channelId: string): string {
  return `${serverToken}.${natsToken(channelId)}`;
}
