import { isEventType, type ResourceKind, type StreamEvent } from '@ringflow/client';
import type { ResourceCleanup } from '../call/CallHandle.ts';
import type { SessionRouter } from './SessionRouter.ts';

/** What a call owns, with whether the runtime must clean it up on the server at the end. */
export interface OwnedResource {
  readonly kind: ResourceKind;
  readonly id: string;
  cleanup: ResourceCleanup;
  /**
   * Its start was seen: a recording known to exist on the server (its RecordingStarted came,
   * or a record request for it succeeded: only those are stopped at the end; a name picked for
   * a recording never requested has nothing to stop), a channel whose StasisStart came.
   */
  started?: boolean;
  /**
   * The server has it: the request that creates it succeeded, or one of its events came. Only
   * those are checked against the server after a gap or by the watchdog: a resource still on its
   * way to the server is not missing (see `recovery/recoverCall.ts`).
   */
  confirmed?: boolean;
  /**
   * When the watchdog asks the server about it if no event has settled it by then (clock time;
   * set by the watchdog's first sweep that sees it, see `recovery/CallWatchdog.ts`).
   */
  checkAt?: number;
}

/** Where an owned resource's events are routed from (the application's {@link SessionRouter}). */
export interface ResourceRoutes<Owner> {
  add(asteriskId: string, kind: ResourceKind, id: string, owner: Owner): void;
  remove(asteriskId: string, kind: ResourceKind, id: string, owner: Owner): void;
}

/** The stronger of two cleanups: remove > when-empty > nothing. */
function strongerCleanup(a: ResourceCleanup, b: ResourceCleanup): ResourceCleanup {
  return a === true || b === true ? true : a || b;
}

function keyOf(kind: ResourceKind, id: string): string {
  return `${kind}\u0000${id}`;
}

/**
 * The resources one call owns (its channel, the channels, playbacks, recordings and bridges it
 * created or joined): owning one routes its events to the call, and says what to do with it on
 * the server when the call ends. Plain data, so a call's snapshot can carry it.
 *
 * @example
 * owned.own('playback', id, false); // its PlaybackFinished reaches the call
 */
export class OwnedResources<Owner = unknown> {
  private readonly byKey = new Map<string, OwnedResource>();

  /**
   * @param routes the router that sends owned resources' events to `owner`
   * @param asteriskId the server the resources live on
   * @param owner the call the events go to
   */
  constructor(
    private readonly routes: ResourceRoutes<Owner>,
    private readonly asteriskId: string,
    private readonly owner: Owner,
  ) {}

  /** Owns a resource (or makes the cleanup of one already owned the stronger of the two). */
  own(kind: ResourceKind, id: string, cleanup: ResourceCleanup): void {
    const key = keyOf(kind, id);
    const known = this.byKey.get(key);
    if (known) {
      known.cleanup = strongerCleanup(known.cleanup, cleanup);
      return;
    }
    this.byKey.set(key, { kind, id, cleanup });
    this.routes.add(this.asteriskId, kind, id, this.owner);
  }

  /** Stops owning it; false when it was not owned. */
  disown(kind: ResourceKind, id: string): boolean {
    if (!this.byKey.delete(keyOf(kind, id))) return false;
    this.routes.remove(this.asteriskId, kind, id, this.owner);
    return true;
  }

  has(kind: ResourceKind, id: string): boolean {
    return this.byKey.has(keyOf(kind, id));
  }

  /** The owned resource, if it is owned. */
  get(kind: ResourceKind, id: string): OwnedResource | undefined {
    return this.byKey.get(keyOf(kind, id));
  }

  /** Notes that an owned resource's start was seen (see {@link OwnedResource.started}). */
  noteStarted(kind: ResourceKind, id: string): void {
    const owned = this.byKey.get(keyOf(kind, id));
    if (owned) {
      owned.started = true;
      owned.confirmed = true;
    }
  }

  /** Notes that the server has an owned resource (see {@link OwnedResource.confirmed}). */
  noteConfirmed(kind: ResourceKind, id: string): void {
    const owned = this.byKey.get(keyOf(kind, id));
    if (owned) owned.confirmed = true;
  }

  /**
   * Follows the life of the owned resources in an event of the call about anything but its own
   * channel: a dialled channel that entered the application, or a recording that started, is
   * noted as started; a dialled channel destroyed, a playback or recording that finished, a
   * bridge destroyed, is no longer owned. True when one was let go.
   * @param channelId the event's channel, if it has one
   */
  follow(event: StreamEvent, channelId: string | undefined): boolean {
    if (isEventType(event, 'StasisStart')) {
      if (channelId) this.noteStarted('channel', channelId);
    } else if (isEventType(event, 'ChannelDestroyed')) {
      if (channelId) return this.disown('channel', channelId);
    } else if (isEventType(event, 'PlaybackStarted')) {
      this.noteConfirmed('playback', event.playback?.id);
    } else if (isEventType(event, 'PlaybackFinished')) {
      return this.disown('playback', event.playback?.id);
    } else if (isEventType(event, 'RecordingStarted')) {
      this.noteStarted('recording', event.recording?.name);
    } else if (isEventType(event, 'RecordingFinished', 'RecordingFailed')) {
      return this.disown('recording', event.recording?.name);
    } else if (isEventType(event, 'BridgeDestroyed')) {
      return this.disown('bridge', event.bridge?.id);
    }
    return false;
  }

  /** Ids of the owned resources of one kind. */
  idsOf(kind: ResourceKind): string[] {
    return this.list()
      .filter((o) => o.kind === kind)
      .map((o) => o.id);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** A copy of the list (safe to change the resources while going through it). */
  list(): OwnedResource[] {
    return [...this.byKey.values()];
  }

  /** Stops routing every resource's events to the call, and forgets them all. */
  releaseRoutes(): void {
    for (const { kind, id } of this.byKey.values()) this.routes.remove(this.asteriskId, kind, id, this.owner);
    this.byKey.clear();
  }

  /** The list as plain data, for the call's snapshot. */
  persist(): OwnedResource[] {
    return this.list().map((o) => ({
      kind: o.kind,
      id: o.id,
      cleanup: o.cleanup,
      ...(o.started ? { started: true } : {}),
      ...(o.confirmed ? { confirmed: true } : {}),
    }));
  }
}
