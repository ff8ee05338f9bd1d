import { type ResourceKind, type StreamEvent, visitEventResources } from '@ringflow/client';

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
    const scan = this.scan(asteriskId, event);
    if (scan.first === undefined) return [];
    const found = [scan.first];
    if (scan.more) found.push(...scan.more);
    scan.first = scan.more = undefined;
    return found;
  }

  /**
   * Delivers the event to every owner of a resource it refers to. On every event's path, and most
   * events are about nobody here: the event's resources are looked up where they sit in it, and
   * nothing is built for an event with no owner or one.
   * @returns how many owners it reached (0: nobody in this application cares).
   */
  route(asteriskId: string, event: StreamEvent): number {
    const scan = this.scan(asteriskId, event);
    const { first, more } = scan;
    if (first === undefined) return 0;
    // Reset before delivering: an owner may route another event from its deliver().
    scan.first = scan.more = undefined;
    first.deliver(event);
    if (!more) return 1;
    for (const owner of more) owner.deliver(event);
    return 1 + more.length;
  }

  /** The owners of the event's resources, in {@link OwnerScan} (reused: read it, then reset it). */
  private scan(asteriskId: string, event: StreamEvent): OwnerScan {
    const scan = this.#scan;
    scan.first = scan.more = undefined;
    const kinds = this.owners.get(asteriskId);
    if (!kinds) return scan;
    scan.kinds = kinds;
    visitEventResources(event, scan, noteOwners);
    scan.kinds = undefined;
    return scan;
  }

  readonly #scan: OwnerScan = { kinds: undefined, first: undefined, more: undefined };

  /** Number of resource keys with at least one owner (leak checks count them). */
  get size(): number {
    return this.count;
  }
}

/** The owners found so far while the router reads one event (see {@link SessionRouter.route}). */
interface OwnerScan {
  /** The owners on the event's server, by kind and id. */
  kinds: Map<ResourceKind, Map<string, EventOwner | Set<EventOwner>>> | undefined;
  /** The first owner found: almost every event that has one has only it. */
  first: EventOwner | undefined;
  /** The other owners, each once, in the order found. */
  more: EventOwner[] | undefined;
}

/** Notes the owners of one resource of the event (a function made once: no closure per event). */
function noteOwners(scan: OwnerScan, kind: ResourceKind, id: string): void {
  const held = scan.kinds!.get(kind)?.get(id);
  if (held === undefined) return;
  if (held instanceof Set) for (const owner of held) noteOwner(scan, owner);
  else noteOwner(scan, held);
}

function noteOwner(scan: OwnerScan, owner: EventOwner): void {
  if (scan.first === undefined) scan.first = owner;
  else if (scan.first === owner) return;
  else if (!scan.more) scan.more = [owner];
  else if (!scan.more.includes(owner)) scan.more.push(owner);
}
