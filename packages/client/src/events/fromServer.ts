import type { MonoTypeOperatorFunction } from 'rxjs';
import { filter } from '../rx.ts';
import type { StreamEvent } from './StreamEvent.ts';

/**
 * Keeps the events sent by one server, by its `asterisk_id` (the entity id a server stamps on every
 * event). Useful when one application merges the streams of several servers.
 *
 * @example
 * merge(east.events$, west.events$).pipe(fromServer('02:fc:00:00:00:01')).subscribe(handle);
 */
export function fromServer<E extends StreamEvent>(asteriskId: string): MonoTypeOperatorFunction<E> {
  return filter((event) => event.asterisk_id === asteriskId);
}
