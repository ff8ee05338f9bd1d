import { eventTypeNames } from '../description/index.ts';
import type { AriEvent, EventOfType, KnownMessageType, StreamEvent } from './StreamEvent.ts';

const knownEventTypes: ReadonlySet<string> = new Set(eventTypeNames);

/**
 * True when the event's `type` is one of the event types of the interface description, so its
 * fields follow the generated interface of that name. Unknown types are still delivered by the
 * stream; this tells them apart.
 *
 * @example
 * events$.subscribe((e) => {
 *   if (!isKnownEvent(e)) log.debug({ type: e.type }, 'event type from a newer server');
 * });
 */
export function isKnownEvent(event: StreamEvent): event is AriEvent {
  return knownEventTypes.has(event.type);
}

/**
 * Narrows one event to a known type (the single-event form of the `ofType` operator).
 *
 * @example
 * if (isEventType(e, 'StasisStart')) console.log(e.channel.id, e.args);
 */
export function isEventType<const T extends KnownMessageType>(
  event: StreamEvent,
  ...types: readonly T[]
): event is EventOfType<T> {
  return (types as readonly string[]).includes(event.type);
}
