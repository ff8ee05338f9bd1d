import type { Readiness } from './startOpsServer.ts';

/** What {@link applicationReadiness} needs of an application: each server's event-stream state. */
export interface ConnectionsSource {
  connections(): readonly { readonly server: string; readonly state: { readonly kind: string } }[];
}

/**
 * Ready when the application has at least one server and every server's event stream is open;
 * otherwise one reason per server that is not (`pbx:8088: event stream reconnecting`).
 *
 * @example
 * applicationReadiness(app); // { ready: false, reasons: ['127.0.0.1:8088: event stream connecting'] }
 */
export function applicationReadiness(app: ConnectionsSource): Readiness {
  const connections = app.connections();
  if (connections.length === 0) return { ready: false, reasons: ['no server connected yet'] };
  const reasons = connections
    .filter((c) => c.state.kind !== 'open')
    .map((c) => `${c.server}: event stream ${c.state.kind}`);
  return { ready: reasons.length === 0, reasons };
}
