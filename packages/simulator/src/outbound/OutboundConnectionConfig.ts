/**
 * One outbound WebSocket of a server, as `websocket_client.conf` (the socket) and `ari.conf`
 * (`type = outbound_websocket`: which applications it carries) configure it on a real server.
 *
 * @example
 * // [ow-percall] connection_type = per_call_config, uri = ws://127.0.0.1:8766/ari-call, reconnect_attempts = 2
 * // [ow-percall-conn] type = outbound_websocket, websocket_client_id = ow-percall, apps = ow-call
 * const percall: OutboundConnectionConfig = {
 *   connectionType: 'per_call_config', uri: 'ws://127.0.0.1:8766/ari-call', apps: ['ow-call'], reconnectAttempts: 2,
 * };
 */
export interface OutboundConnectionConfig {
  /** A name for diagnostics (the section name on a real server). Default: the uri. */
  readonly name?: string;
  /**
   * `persistent`: one connection opened at start-up, re-opened every `reconnectIntervalMs` while
   * down. `per_call_config`: one connection per call, opened when the channel reaches `Stasis()`;
   * the application is then named `<app>:<channel name>` on it.
   */
  readonly connectionType: 'persistent' | 'per_call_config';
  /** Where the application listens: `ws://127.0.0.1:8765/ari-app`. */
  readonly uri: string;
  /** The applications the connection carries (`apps =` in `ari.conf`). */
  readonly apps: readonly string[];
  /** Sent as Basic credentials in the handshake; none are sent without them. */
  readonly username?: string;
  readonly password?: string;
  /** The WebSocket subprotocol offered. Default `ari`. */
  readonly protocols?: string;
  /** Wait between connection attempts, in ms. Default 500. */
  readonly reconnectIntervalMs?: number;
  /**
   * Per-call connections: attempts to connect (or re-connect after a drop) before giving up; the
   * call then fails `Stasis()` (or is hung up, mid-call). Default 4.
   */
  readonly reconnectAttempts?: number;
  /**
   * Subscribe the applications to every event (`subscribe_all` in ari.conf), as `subscribeAll`
   * does on an event socket the application opens; a per-call connection's `app:<channel>` too.
   * Default false.
   */
  readonly subscribeAll?: boolean;
  /** Rights of `local_ari_user`: read-only users may only GET. Default false. */
  readonly readOnly?: boolean;
  /** Per-call connections: how long after the call's `StasisEnd` the server closes it. Default 3500 ms (observed). */
  readonly closeAfterStasisEndMs?: number;
  /**
   * Certificate authorities trusted for a `wss://` uri (the server's `ca_list_file`); default:
   * Node's built-in list.
   */
  readonly ca?: string | Buffer;
}

export const OUTBOUND_DEFAULTS = {
  protocols: 'ari',
  reconnectIntervalMs: 500,
  reconnectAttempts: 4,
  closeAfterStasisEndMs: 3500,
} as const;
