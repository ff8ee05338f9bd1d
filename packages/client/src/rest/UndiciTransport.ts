import { Pool } from 'undici';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import { encodeQueryString } from './encodeQueryString.ts';
import type {
  RestTransport,
  TransportCancel,
  TransportExchange,
  TransportRequest,
  TransportResponse,
} from './RestTransport.ts';
import { checkTlsOptions, nodeTlsOptions, type TlsOptions } from './TlsOptions.ts';
import { UndiciRequestHandler } from './UndiciRequestHandler.ts';

/** How the transport proves who it is. */
export type RestAuth = 'basic' | 'api_key';

export interface UndiciTransportOptions {
  /** The interface root: `http://127.0.0.1:8088/ari`. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** `basic` (default): an `Authorization: Basic` header. `api_key`: `api_key=user:password` in the query. */
  readonly auth?: RestAuth;
  /**
   * Most connections kept open to the server at once. Default 10. Requests beyond them wait in
   * the pool's queue; the REST client's reply deadline does not count that wait.
   */
  readonly connections?: number;
  /** For `https://` urls: CA to trust, client certificate, server name. Verification cannot be turned off. */
  readonly tls?: TlsOptions;
}

/**
 * The default {@link RestTransport}: HTTP/1.1 over one undici connection pool for the server's
 * origin, with keep-alive, so successive requests reuse open connections. Sends JSON bodies and
 * decodes JSON, text and binary replies.
 *
 * It sets no timeouts of its own: the REST client schedules them on its injected Clock, so virtual
 * time drives them in tests. Through `dispatch` it tells the client when a request is written on
 * a connection, which is when the client's reply deadline starts.
 *
 * @example
 * const transport = new UndiciTransport({ url: 'http://127.0.0.1:8088/ari', username: 'demo', password: 'demo' });
 * const reply = await transport.send({ method: 'GET', path: '/asterisk/ping', query: [] });
 * await transport.close();
 */
export class UndiciTransport implements RestTransport {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly basePath: string;
  /** `origin` + `basePath`, for error messages. */
  private readonly root: string;
  // Private (#) so credentials never show up when the transport is logged or inspected.
  /** Headers of a request without a body, and with a JSON body; built once. */
  readonly #headers: Readonly<Record<string, string>>;
  readonly #jsonHeaders: Readonly<Record<string, string>>;
  /** `api_key=...`, already encoded, for the `api_key` scheme. */
  readonly #apiKey: string | undefined;
  private closed = false;

  constructor(options: UndiciTransportOptions) {
    checkTlsOptions(options.tls, options.url, 'UndiciTransport: tls');
    const url = new URL(options.url);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.root = `${this.origin}${this.basePath}`;
    const credentials = `${options.username}:${options.password}`;
    const headers: Record<string, string> = {};
    if ((options.auth ?? 'basic') === 'api_key') this.#apiKey = encodeQueryString([['api_key', credentials]]);
    else headers.authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
    this.#headers = Object.freeze(headers);
    this.#jsonHeaders = Object.freeze({ ...headers, 'content-type': 'application/json' });
    this.pool = new Pool(this.origin, {
      connections: options.connections ?? 10,
      // Timeouts belong to the client's Clock (see the class comment); 0 disables undici's own.
      headersTimeout: 0,
      bodyTimeout: 0,
      // Only the vetted options reach tls.connect, so certificate checks always stay on.
      ...(options.tls ? { connect: nodeTlsOptions(options.tls) } : {}),
    });
  }

  dispatch(request: TransportRequest, exchange: TransportExchange): TransportCancel {
    const handler = new UndiciRequestHandler(exchange, request, this.root);
    if (this.closed) {
      exchange.failed(
        new RingflowError(ErrorCode.CLOSED, `transport to ${this.origin} is closed; create a new client`),
      );
      return handler;
    }
    const { query } = request;
    let search = query.length > 0 ? encodeQueryString(query) : '';
    if (this.#apiKey) search = search ? `${search}&${this.#apiKey}` : this.#apiKey;
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    this.pool.dispatch(
      {
        method: request.method,
        path: search ? `${this.basePath}${request.path}?${search}` : `${this.basePath}${request.path}`,
        headers: body === undefined ? this.#headers : this.#jsonHeaders,
        body,
      },
      handler,
    );
    return handler;
  }

  /**
   * Sends one request and resolves with its reply; `request.signal` cancels it, queued or in
   * flight (the promise then rejects with the signal's reason).
   */
  send(request: TransportRequest): Promise<TransportResponse> {
    const { signal } = request;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<TransportResponse>((resolve, reject) => {
      let settled = false;
      const onAbort = (): void => handle.cancel(abortReason(signal));
      const handle = this.dispatch(request, {
        dispatched() {},
        replied(reply) {
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(reply);
        },
        failed(error) {
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      if (!settled) signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Closes the pool after the requests in flight have finished. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.close();
  }
}

/** The reason an AbortSignal carries, as an Error. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new RingflowError(ErrorCode.ABORTED, 'the request was cancelled');
}
