import { eventResources, type ResourceKind, type StreamEvent } from '@ringflow/client';

/** Something events can be routed to: a call session or a bridge session. */
export interface EventOwner {
  deliver(event: StreamEvent): void;
}

/** The key of one resource on one server: the server's `asterisk_id`, the kind and the id. */
export function resourceKey(asteriskId: string, kind: ResourceKind, id: string): string {
  return `${asteriskId}\u0000${kind}\u0000${id}`;
}

/**
 * Routes events to the sessions that own the resources they refer to. A resource may have several
 * owners (a conference bridge is owned by its bridge session and by each call that joined it); an
 * event reaches each owner once, however many of its resources that owner holds.
 *
 * Owners register a resource before creating it ("stage, then execute"), so the first event about
 * it always finds its way.
 *
 * @example
 * router.add('02:fc:00:00:00:01', 'channel', 'call-1', session);
 * router.route('02:fc:00:00:00:01', stasisStartEvent); // 1 owner reached
 */
export class SessionRouter {
  /**
   * Owners by server, kind and id: nested maps, so routing an event looks its resources up
   * without building a key string per resource per event. A resource almost always has one owner
   * (its call), kept as is; a Set only when there are several (a conference bridge).
   */
  private readonly owners = new Map<string, Map<ResourceKind, Map<string, EventOwner | Set<EventOwner>>>>();
  private count = 0;

  private idsOf(
    asteriskId: string,
    kind: ResourceKind,
    create: boolean,
  ): Map<string, EventOwner | Set<EventOwner>> | undefined {
    let kinds = this.owners.get(asteriskId);
    if (!kinds) {
      if (!create) return undefined;
      kinds = new Map();
      this.owners.set(asteriskId, kinds);
    }
    let ids = kinds.get(kind);
    if (!ids && create) {
      ids = new Map();
      kinds.set(kind, ids);
    }
    return ids;
  }

  add(asteriskId: string, kind: ResourceKind, id: string, owner: EventOwner): void {
    const ids = this.idsOf(asteriskId, kind, true)!;
    const held = ids.get(id);
    if (held === undefined) {
      ids.set(id, owner);
      this.count++;
    } else if (held instanceof Set) held.add(owner);
    else if (held !== owner) ids.set(id, new Set([held, owner]));
  }

  remove(asteriskId: string, kind: ResourceKind, id: string, owner: EventOwner): void {
    const ids = this.idsOf(asteriskId, kind, false);
    const held = ids?.get(id);
    if (!ids || held === undefined) return;
    if (held instanceof Set) {
      held.delete(owner);
      if (held.size > 1) return;
      const [last] = held;
      if (last !== undefined) {
        ids.set(id, last);
        return;
      }
    } else if (held !== owner) return;
    ids.delete(id);
    this.count--;
  }

  /** The owners of one resource. */
  ownersOf(asteriskId: string, kind: ResourceKind, id: string): readonly EventOwner[] {
    const held = this.idsOf(asteriskId, kind, false)?.get(id);
    if (held === undefined) return [];
    return held instanceof Set ? [...held] : [held];
  }

  /** The owners of any resource the event refers to, each once, in the order of the event's fields. */
  resolve(asteriskId: string, event: StreamEvent): EventOwner[] {
    const found: EventOwner[] = [];
    const kinds = this.owners.get(asteriskId);
    if (!kinds) return found;
    for (const ref of eventResources(event)) {
      const held = kinds.get(ref.kind)?.get(ref.id);
      if (held === undefined) continue;
      if (held instanceof Set) {
        for (const owner of held) if (!found.includes(owner)) found.push(owner);
      } else if (!found.includes(held)) found.push(held);
    }
    return found;
  }

  /**
   * Delivers the event to every owner of a resource it refers to.
   * @returns how many owners it reached (0: nobody in this application cares).
   */
  route(asteriskId: string, event: StreamEvent): number {
    const owners = this.resolve(asteriskId, event);
    for (const owner of owners) owner.deliver(event);
    return owners.length;
  }

  /** Number of resource keys with at least one owner (leak checks count them). */
  get size(): number {
    return this.count;
  }
}
