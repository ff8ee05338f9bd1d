import type {
  AcceptedServerSocket,
  ListenForServersOptions,
  ServerSocketListener,
  TlsOptions,
} from '@ringflow/client';

/**
 * How an application waits for servers to dial it (ARI outbound WebSockets) instead of dialling
 * them: where it listens, the credentials servers must send, and optionally the server's HTTP
 * address for what a socket cannot carry.
 *
 * @example
 * createApplication({ apps: ['ow-call'], call: machine,
 *   listen: { host: '0.0.0.0', port: 8765, path: '/ari-call', accounts: [{ username: 'appuser', password: 'apppass' }] } });
 */
export interface ListenOptions extends ListenForServersOptions {
  /**
   * How long (ms, application clock) a call whose socket closed waits for the server to re-dial
   * it before its session ends `failed` (without a store; with one it is detached at once and
   * whichever process the server reaches takes it over). Default 30 000.
   */
  readonly redialGraceMs?: number;
  /**
   * Where servers' connections come from instead of a TCP listener (`host`, `port`, `path`,
   * `accounts` and `tls` are then not used): tests pass the simulator's `connectInProcess`, so a
   * server dials the application in the same process, on a virtual clock.
   *
   * @example
   * listen: { port: 0, accept: async (onConnection) => connectInProcess({}, onConnection) }
   */
  readonly accept?: (
    onConnection: (socket: AcceptedServerSocket) => void,
  ) => ServerSocketListener | Promise<ServerSocketListener>;
  /** The server name in logs, metrics and `session.server.name`. Default `listen`. */
  readonly name?: string;
  /**
   * The server's HTTP interface, used only for binary downloads (`recordings.getStoredFile`),
   * which REST over the socket cannot carry. Without it those requests fail with `CONFIG`.
   * (`ringflow run --listen ... --server <url>` sets it to that server.)
   */
  readonly http?: {
    readonly url: string;
    readonly username: string;
    readonly password: string;
    readonly tls?: TlsOptions;
  };
}
