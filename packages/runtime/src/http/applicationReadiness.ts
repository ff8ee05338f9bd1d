import type { Readiness } from './startOpsServer.ts';

/** What {@link applicationReadiness} needs from an application. */
export interface ConnectionsSource {
  connections(): readonly {
    readonly server: string;
    readonly state: { readonly kind: string };
    /** Applications another connection took over on that server (`ApplicationReplaced`). */
    readonly replaced?: readonly string[];
  }[];
  /**
   * Where servers dial the application (`listen`), once it listens: a process that only listens
   * is ready as soon as it does (its servers connect per call).
   */
  readonly listening?: { readonly url: string } | undefined;
  /** Calls being checked with the server after an event stream gap now. */
  readonly recoveringCalls?: number;
}

/**
 * Ready when every server's event stream is open, no other connection took one of its
 * applications over, and no call is being checked with the server after a gap; an application
 * with no server of its own is ready once it listens for servers that dial it. Otherwise one
 * reason each (`pbx:8088: event stream reconnecting`, `recovering 6 calls after an event stream
 * gap`, ...).
 *
 * @example
 * applicationReadiness(app); // { ready: false, reasons: ['127.0.0.1:8088: event stream connecting'] }
 */
export function applicationReadiness(app: ConnectionsSource): Readiness {
  const connections = app.connections();
  const reasons: string[] = [];
  if (connections.length === 0 && !app.listening) reasons.push('no server connected yet');
  for (const c of connections) {
    for (const name of c.replaced ?? [])
      reasons.push(
        `${c.server}: application "${name}" replaced by another connection to the server (another process with the same application name?)`,
      );
    if (c.state.kind !== 'open') reasons.push(`${c.server}: event stream ${c.state.kind}`);
  }
  const recovering = app.recoveringCalls ?? 0;
  if (recovering > 0)
    reasons.push(`recovering ${recovering} call${recovering === 1 ? '' : 's'} after an event stream gap`);
  return { ready: reasons.length === 0, reasons };
}
