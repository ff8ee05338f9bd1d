import type {
  EventStreamOptions,
  EventTransport,
  RestAuth,
  RestTransport,
  TlsOptions,
} from '@ringflow/client';

/** One server the application serves. */
export interface ServerOptions {
  /** The interface root: `http://127.0.0.1:8088/ari`. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** A name for logs and metrics; default: the URL's host. */
  readonly name?: string;
  /**
   * For `https://` servers: the CA to trust, a client certificate, the server name to check; used
   * by the REST client and the event stream alike. Certificate checks cannot be turned off.
   */
  readonly tls?: TlsOptions;
  /**
   * How credentials travel, on REST requests and on the event socket alike: `basic` (default,
   * an `Authorization` header) or `api_key` (`api_key=user:password` in the URL, for servers or
   * proxies that only accept that; URLs end up in logs, so prefer `basic`).
   */
  readonly auth?: RestAuth;
  /** Replaces the HTTP transport (in process: `inProcessRestTransport(simulator)`). */
  readonly restTransport?: RestTransport;
  /** Replaces the WebSocket transport (in process: `inProcessEventTransport(simulator)`). */
  readonly eventTransport?: EventTransport;
  /**
   * Send REST requests over the event WebSocket (`RESTRequest` frames; servers since interface
   * 2.0) instead of HTTP. Binary downloads still need HTTP: they go to `restTransport` if given,
   * else to the server's `url`.
   */
  readonly restOverSocket?: boolean;
  /** Event stream tuning: backoff, ping interval, timeouts. */
  readonly eventStream?: Pick<
    EventStreamOptions,
    'backoff' | 'random' | 'pingIntervalMs' | 'pongTimeoutMs' | 'connectTimeoutMs'
  >;
  /**
   * REST timeout in milliseconds, counted from when a request is written on a connection (time
   * waiting for a free pooled connection is not counted). Default 10000.
   */
  readonly restTimeoutMs?: number;
  /**
   * Most HTTP connections kept open to the server (default 10). Requests beyond them wait for a
   * free one. Raise it for thousands of concurrent calls if the server allows it (a real
   * server's `http.conf` `sessionlimit` caps the connections it accepts).
   */
  readonly restConnections?: number;
}
