import { Pool } from 'undici';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import { decodeHttpReply } from './decodeHttpReply.ts';
import { encodeQueryString } from './encodeQueryString.ts';
import type { RestTransport, TransportRequest, TransportResponse } from './RestTransport.ts';
import { checkTlsOptions, describeTlsFailure, nodeTlsOptions, type TlsOptions } from './TlsOptions.ts';

/** How the transport proves who it is. */
export type RestAuth = 'basic' | 'api_key';

export interface UndiciTransportOptions {
  /** The interface root: `http://127.0.0.1:8088/ari`. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** `basic` (default): an `Authorization: Basic` header. `api_key`: `api_key=user:password` in the query. */
  readonly auth?: RestAuth;
  /** Most connections kept open to the server at once. Default 10. */
  readonly connections?: number;
  /** For `https://` urls: CA to trust, client certificate, server name. Verification cannot be turned off. */
  readonly tls?: TlsOptions;
}

function headerRecord(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * The default {@link RestTransport}: HTTP/1.1 over one undici connection pool for the server's
 * origin, with keep-alive, so successive requests reuse open connections. Sends JSON bodies and
 * decodes JSON, text and binary replies.
 *
 * It sets no timeouts of its own: the REST client schedules them on its injected Clock and aborts
 * the request's signal, so virtual time drives them in tests.
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
  // Private (#) so credentials never show up when the transport is logged or inspected.
  readonly #authorization: string | undefined;
  readonly #apiKey: string | undefined;
  private closed = false;

  constructor(options: UndiciTransportOptions) {
    checkTlsOptions(options.tls, options.url, 'UndiciTransport: tls');
    const url = new URL(options.url);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    const credentials = `${options.username}:${options.password}`;
    if ((options.auth ?? 'basic') === 'api_key') this.#apiKey = credentials;
    else this.#authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
    this.pool = new Pool(this.origin, {
      connections: options.connections ?? 10,
      // Timeouts belong to the client's Clock (see the class comment); 0 disables undici's own.
      headersTimeout: 0,
      bodyTimeout: 0,
      // Only the vetted options reach tls.connect, so certificate checks always stay on.
      ...(options.tls ? { connect: nodeTlsOptions(options.tls) } : {}),
    });
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    if (this.closed) {
      throw new RingflowError(ErrorCode.CLOSED, `transport to ${this.origin} is closed; create a new client`);
    }
    const query = this.#apiKey ? [...request.query, ['api_key', this.#apiKey] as const] : request.query;
    const search = encodeQueryString(query);
    const headers: Record<string, string> = {};
    if (this.#authorization) headers.authorization = this.#authorization;
    let payload: string | undefined;
    if (request.body !== undefined) {
      payload = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    let reply: Awaited<ReturnType<Pool['request']>>;
    try {
      reply = await this.pool.request({
        method: request.method,
        path: `${this.basePath}${request.path}${search ? `?${search}` : ''}`,
        headers,
        body: payload,
        signal: request.signal,
      });
    } catch (error) {
      const tls = describeTlsFailure(error);
      if (tls) {
        throw new RingflowError(
          ErrorCode.NETWORK,
          `${request.method} ${this.origin}${this.basePath}${request.path}: ${tls}`,
          {
            cause: error,
          },
        );
      }
      throw error;
    }
    const bytes = new Uint8Array(await reply.body.arrayBuffer());
    return decodeHttpReply(reply.statusCode, headerRecord(reply.headers), bytes);
  }

  /** Closes the pool after the requests in flight have finished. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.close();
  }
}
