import { isEventType, type StasisStart, type StreamEvent } from '@ringflow/client';
import type { QueueDirectory } from '../queue/QueueDirectory.ts';
import { applicationReplaced } from './applicationReplaced.ts';
import type { BroadcastClaims } from './BroadcastClaims.ts';
import type { CallSessions } from './CallSessions.ts';
import type { ServerLink } from './ServerLink.ts';
import type { ServerLinks } from './ServerLinks.ts';

/** What the application offers the events no session owns. */
export interface UnroutedEventHost {
  readonly queues: QueueDirectory;
  readonly claims: BroadcastClaims | undefined;
  readonly links: ServerLinks;
  readonly sessions: CallSessions;
  readonly hasStore: boolean;
  appOf(name: string): string | undefined;
  /** Whether a channel no session owns starts a call here (`ApplicationOptions.acceptCall`). */
  accepts(start: StasisStart, link: ServerLink): boolean;
  /** A channel entered the application: its call starts (or is refused while draining). */
  inbound(link: ServerLink, start: StasisStart): void;
}

/** The event types {@link handleUnroutedEvent} may act on: every other one is dropped at once. */
const APPLICATION_EVENTS: ReadonlySet<string> = new Set([
  'DeviceStateChanged',
  'CallBroadcast',
  'ApplicationReplaced',
  'ApplicationRegistered',
  'StasisStart',
]);

/**
 * An event no session owns, for the application itself: an agent's device state (call queues),
 * a call offered by broadcast, an application taken over by another connection, a per-call
 * connection re-dialled, a channel entering the application. False when nothing wanted it.
 */
export function handleUnroutedEvent(host: UnroutedEventHost, link: ServerLink, event: StreamEvent): boolean {
  // Most events no session owns are about channels nobody here follows (the dialplan's and the
  // other half's of a Local pair, a call's channel after its end): one look-up drops them.
  if (!APPLICATION_EVENTS.has(event.type)) return false;
  if (isEventType(event, 'DeviceStateChanged')) {
    host.queues.deviceChanged(link.name, event.device_state);
  } else if (isEventType(event, 'CallBroadcast') && host.claims && host.appOf(event.application)) {
    host.claims.offered(link.client, event, link.logger);
  } else if (isEventType(event, 'ApplicationReplaced') && host.appOf(event.application)) {
    const app = host.appOf(event.application);
    applicationReplaced(link, event.application, {
      accepted: host.links.isAccepted(link),
      hasStore: host.hasStore,
      calls: host.sessions
        .on(link)
        .filter((s) => s.application === undefined || host.appOf(s.application) === app),
    });
  } else if (isEventType(event, 'ApplicationRegistered') && host.links.isAccepted(link)) {
    void host.links.accepted?.takeOver(link, event.application);
  } else if (isEventType(event, 'StasisStart') && host.appOf(event.application)) {
    if (host.accepts(event, link)) host.inbound(link, event);
  } else {
    return false;
  }
  return true;
}
