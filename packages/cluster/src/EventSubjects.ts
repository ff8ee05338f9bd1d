import { natsToken } from './natsToken.ts';

/** The JetStream stream of the events of servers reached the classic way. */
export const EVENTS_STREAM = 'RINGFLOW_EVENTS';
/** Every subject of {@link EVENTS_STREAM}: `ringflow.events.<server>.<channel>`. */
export const EVENTS_SUBJECTS = 'ringflow.events.>';
/** The last token of the gap marker: the holder changed or reconnected; workers reconcile. */
export const EVENT_GAP = '_gap';
/** The last token of events about no channel. */
const NO_CHANNEL = '_';
/** The header of a StasisStart naming the worker the call is assigned to. */
export const WORKER_HEADER = 'Ringflow-Worker';

/**
 * The subject of an event about `channelId` on a server (tokens made by {@link natsToken}), or of
 * a marker (`special`).
 *
 * @example
 * eventSubject(natsToken('pbx1'), 'c1'); // 'ringflow.events.vcGJ4MQ.vYzE'
 */
export function eventSubject(serverToken: string, channelId: string | undefined, special?: string): string {
  return `ringflow.events.${serverToken}.${special ?? (channelId === undefined ? NO_CHANNEL : natsToken(channelId))}`;
}

/** Every event subject of one server. */
export function serverSubjects(serverToken: string): string {
  return `ringflow.events.${serverToken}.>`;
}

/** The key of a channel's assignment (the worker driving its call) in the assignment bucket. */
export function assignmentKey(serverToken: string, channelId: string): string {
  return `${serverToken}.${natsToken(channelId)}`;
}
