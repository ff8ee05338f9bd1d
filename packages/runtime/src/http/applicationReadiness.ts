import type { Readiness } from './startOpsServer.ts';

/** What {@link applicationReadiness} needs of an application: each server's event-stream state. */
export interface ConnectionsSource {
  connections(): readonly {
    readonly server: string;
    readonly state: { readonly kind: string };
    /** Applications another connection took over on that server (`ApplicationReplaced`). */
    readonly replaced?: readonly string[];
  }[];
}

/**
 * Ready when the application has at least one server, every server's event stream is open and
 * no other connection took one of its applications over; otherwise one reason per server that is
 * not (`pbx:8088: event stream reconnecting`, `pbx:8088: application "ivr" replaced by another
 * connection ...`).
 *
 * @example
 * applicationReadiness(app); // { ready: false, reasons: ['127.0.0.1:8088: event stream connecting'] }
 */
export function applicationReadiness(app: ConnectionsSource): Readiness {
  const connections = app.connections();
  if (connections.length === 0) return { ready: false, reasons: ['no server connected yet'] };
  const reasons: string[] = [];
  for (const c of connections) {
    for (const name of c.replaced ?? [])
      reasons.push(
        `${c.server}: application "${name}" replaced by another connection to the server (another process with the same application name?)`,
      );
    if (c.state.kind !== 'open') reasons.push(`${c.server}: event stream ${c.state.kind}`);
  }
  return { ready: reasons.length === 0, reasons };
}
