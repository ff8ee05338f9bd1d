import type { Observable, OperatorFunction } from 'rxjs';
import { filter } from '../rx.ts';
import { isEventType } from './isKnownEvent.ts';
import type { EventOfType, KnownMessageType, StreamEvent } from './StreamEvent.ts';

/**
 * Keeps the events of the given types and narrows them to their interfaces. Only known type
 * names are accepted, so a typo is a compile error; for an event type this client does not know
 * yet, use `filter((e) => e.type === 'NewThing')`.
 *
 * @example
 * stream.events$.pipe(ofType('StasisStart', 'StasisEnd')).subscribe((e) => {
 *   console.log(e.type, e.channel.id); // e: StasisStart | StasisEnd
 * });
 */
export function ofType<const T extends KnownMessageType>(
  ...types: readonly T[]
): OperatorFunction<StreamEvent, EventOfType<T>> {
  return (source: Observable<StreamEvent>) =>
    source.pipe(filter((event): event is EventOfType<T> => isEventType(event, ...types)));
}
