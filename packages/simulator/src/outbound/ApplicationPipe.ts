import type { OutboundConnectionConfig } from './OutboundConnectionConfig.ts';

/**
 * The server's end of one connection to the application: text frames both ways and a close
 * code. A WebSocket is one ({@link dialWebSocket}); an in-process pair is another
 * (`connectInProcess`), so the same outbound code runs with or without sockets.
 *
 * The contract: frames sent while `open` arrive in order; `onMessage` receives the application's
 * frames in order; `onClose` is called once, when either side closed (1006 when it just broke).
 * `close` may be called in any state and more than once.
 */
export interface ApplicationPipe {
  /** True until the pipe is closed (by either side). */
  readonly open: boolean;
  send(frame: string): void;
  close(code?: number): void;
  onMessage(handler: (frame: string) => void): void;
  onClose(handler: (code: number) => void): void;
}

/**
 * How the server reaches the application: opens a connection to `config.uri`, offering the
 * subprotocols and the Basic credentials of `config`. Resolves once open; rejects when refused
 * or unreachable (the message says which: `refused with 401`, `ECONNREFUSED`).
 */
export type ApplicationDialer = (
  config: OutboundConnectionConfig,
  protocols: string,
) => Promise<ApplicationPipe>;
