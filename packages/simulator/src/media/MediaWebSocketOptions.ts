import type { MediaDialer } from './MediaPipe.ts';

/**
 * A `websocket_client` a media channel can dial (`external_host=<id>` in externalMedia), as
 * `websocket_client.conf` configures it on a real server.
 *
 * @example
 * // [mt-media] type=websocket_client, uri=ws://127.0.0.1:18931/media-out, protocols=media,
 * //            username=mtuser, password=mtpass, reconnect_attempts=2, reconnect_interval=300
 * const client: MediaWebSocketClient = {
 *   id: 'mt-media', uri: 'ws://127.0.0.1:18931/media-out', username: 'mtuser', password: 'mtpass',
 *   reconnectAttempts: 2, reconnectIntervalMs: 300,
 * };
 */
export interface MediaWebSocketClient {
  /** The section name: what `external_host` names. */
  readonly id: string;
  readonly uri: string;
  /** Sent as Basic credentials in the handshake; none without them. */
  readonly username?: string;
  readonly password?: string;
  /** Subprotocols offered. Default `media`. */
  readonly protocols?: string;
  /** Connection attempts before the channel is given up (cause 3). Default 4. */
  readonly reconnectAttempts?: number;
  /** Wait between attempts, in ms. Default 500. */
  readonly reconnectIntervalMs?: number;
  /** Handshake time limit, in ms. Default 500. */
  readonly connectionTimeoutMs?: number;
}

/** Media over WebSocket (chan_websocket) in a simulator: `createSimulator({ mediaWebSockets })`. */
export interface MediaWebSocketOptions {
  /** The `websocket_client` sections media channels may dial. */
  readonly clients?: readonly MediaWebSocketClient[];
  /** How the server dials a client. Default: a WebSocket ({@link dialMediaWebSocket}). */
  readonly dial?: MediaDialer;
  /** How long an incoming-mode channel waits for the application to connect. Default 30 s (observed). */
  readonly incomingTimeoutMs?: number;
}

export const MEDIA_CLIENT_DEFAULTS = {
  protocols: 'media',
  reconnectAttempts: 4,
  reconnectIntervalMs: 500,
  connectionTimeoutMs: 500,
} as const;
