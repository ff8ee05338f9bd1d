/**
 * The seam between the event stream (reconnects, liveness, parsing, RxJS) and the thing that
 * carries frames: a WebSocket ({@link WsTransport}, the default) or an in-process server (the
 * simulator) that needs no socket at all.
 *
 * A transport opens one connection per `connect` call and reports what happens on it through the
 * handlers. The contract, which the stream relies on:
 * - Either `rejected` is called once (the server refused the handshake), or `open` is called once
 *   and then any number of `message` and `pong` calls, or `error` is called; `closed` ends every
 *   connection that was not `rejected`. After `rejected` or `closed` nothing more is called.
 * - `message` gets one frame: JSON text, or an already parsed JSON object (an in-process server
 *   hands over its event objects as they are; they are not copied, so do not reuse them).
 * - `ping` asks for a liveness answer: the transport calls `pong` when it arrives. A transport
 *   without pings (in process) calls `pong` right away, or at the latest on the next tick.
 * - `close` ends the connection politely (a close frame for WebSockets), `terminate` at once.
 *   Both may be called in any state, more than once, and must not throw.
 * Handlers may be called from inside `connect`, before it returns.
 *
 * @example
 * // An in-process transport in a few lines:
 * const inProcess: EventTransport = {
 *   connect(request, on) {
 *     const conn = server.connectEvents(request, (event) => on.message(event));
 *     queueMicrotask(() => on.open());
 *     return {
 *       ping: () => queueMicrotask(() => on.pong()),
 *       close: () => { conn.close(); on.closed(1000, ''); },
 *       terminate: () => { conn.close(); on.closed(1006, ''); },
 *     };
 *   },
 * };
 */
export interface EventTransport {
  connect(request: EventTransportRequest, handlers: EventTransportHandlers): EventTransportConnection;
}

/** What to connect to. `url` is complete; the other fields say the same for transports that skip URLs. */
export interface EventTransportRequest {
  /** `ws://host:8088/ari/events?app=a,b[&api_key=user:password][&subscribeAll=true]`. */
  readonly url: string;
  /** Headers to send with the upgrade request (`Authorization: Basic ...` by default). */
  readonly headers: Readonly<Record<string, string>>;
  /** The application names, in order. */
  readonly apps: readonly string[];
  readonly subscribeAll: boolean;
  /** The credentials, whichever way `url` and `headers` carry them; absent when none were given. */
  readonly credentials?: { readonly username: string; readonly password: string };
}

/** What the transport reports about one connection. */
export interface EventTransportHandlers {
  /** The connection is established; frames may follow. */
  open(): void;
  /** One frame: JSON text, or a JSON object already parsed. */
  message(frame: string | object): void;
  /** The answer to a `ping`. */
  pong(): void;
  /** The server refused the connection with an HTTP status; `body` is its text (may be empty). */
  rejected(status: number, body: string): void;
  /** The connection failed (network error, protocol error); `closed` follows. */
  error(error: Error): void;
  /** The connection ended: the WebSocket close code (1006 when it just broke) and reason. */
  closed(code: number, reason: string): void;
}

/** Control of one connection. */
export interface EventTransportConnection {
  ping(): void;
  /**
   * Writes one text frame to the server (REST requests over the socket, `restOverSocket`).
   * Optional: a transport without it cannot carry REST requests.
   */
  send?(frame: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
}
