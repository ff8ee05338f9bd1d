import type { MonoTypeOperatorFunction } from 'rxjs';
import { filter } from '../rx.ts';
import { eventResources, type ResourceKind } from './eventResources.ts';
import type { StreamEvent } from './StreamEvent.ts';

/**
 * Names what an event is about. Every field is optional and an empty field matches anything:
 * `{ kind: 'channel', id: 'c1' }` is "about channel c1, on any server, for any application";
 * `{ node: '02:fc:00:00:00:01' }` is "anything from that server".
 */
export interface EventKey {
  /** The kind of resource the event must refer to. */
  readonly kind?: ResourceKind;
  /** The id the event must refer to (with `kind`: a resource of that kind with this id). */
  readonly id?: string;
  /** The server's `asterisk_id`. */
  readonly node?: string;
  /** The application the event was delivered to. */
  readonly app?: string;
}

/**
 * True when the event matches the key (see {@link EventKey}).
 *
 * @example
 * keyMatches({ kind: 'bridge', id: 'conf-1', app: 'ivr' }, event);
 */
export function keyMatches(key: EventKey, event: StreamEvent): boolean {
  if (key.node && event.asterisk_id !== key.node) return false;
  if (key.app && (event as { application?: unknown }).application !== key.app) return false;
  if (!key.kind && !key.id) return true;
  return eventResources(event).some(
    (ref) => (!key.kind || ref.kind === key.kind) && (!key.id || ref.id === key.id),
  );
}

/**
 * Keeps the events matching a key, where an empty field matches anything.
 *
 * @example
 * stream.events$.pipe(matchKey({ kind: 'channel', id: 'call-1', node: '02:fc:00:00:00:01' }))
 *   .subscribe(session.send);
 */
export function matchKey<E extends StreamEvent>(key: EventKey): MonoTypeOperatorFunction<E> {
  return filter((event) => keyMatches(key, event));
}
