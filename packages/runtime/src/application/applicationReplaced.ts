import type { CallSession } from '../session/CallSession.ts';
import type { ServerLink } from './ServerLink.ts';

/**
 * Another connection registered one of the application's names on this server (a second
 * process with the same application, or a stray test): the server now sends that
 * application's events there and nothing more here (and keeps the socket open). Said as an
 * error, and /readyz says not ready (see `Application.connections`); the link does not reconnect
 * to take the application back (see {@link ServerLink.markReplaced}). The calls of that
 * application on this link can no longer hear their events: they are let go untouched
 * (`detached`), their records left in the store for whoever serves the application now.
 */
export function applicationReplaced(
  link: ServerLink,
  application: string,
  how: {
    /** The link is a socket the server dialled (outbound WebSockets). */
    readonly accepted: boolean;
    /** The application keeps call records (they stay for whoever serves the application now). */
    readonly hasStore: boolean;
    /** The calls of that application on the link. */
    readonly calls: readonly CallSession[];
  },
): void {
  if (!link.markReplaced(application, how.accepted)) return;
  const { calls } = how;
  link.logger.error(
    { app: application, calls: calls.map((s) => s.channelId) },
    `another connection registered application "${application}" on this server, which now sends its events there instead of here. ` +
      'This process stops serving it on this server and does not reconnect to take it back; its calls here are let go untouched' +
      (how.hasStore ? ' (their records stay in the store)' : '') +
      '. Two processes cannot share one application name on a server: stop one, give each its own name, or use cluster mode.',
  );
  for (const s of calls) s.end('detached');
}
