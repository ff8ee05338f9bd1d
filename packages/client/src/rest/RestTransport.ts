import type { HttpMethod } from '../description/spec.ts';

/**
 * One HTTP request, as the REST client hands it to a transport. Everything is already encoded
 * the way a real server expects it; a transport only moves it.
 */
export interface TransportRequest {
  readonly method: HttpMethod;
  /**
   * Path below the interface root (`/channels/c1/answer`, `/deviceStates/Stasis:d1`), each path
   * parameter already percent-encoded, so a `/` inside a value arrives as `%2F`
   * (`/recordings/stored/sub%2Ft2`). Decode each segment with `decodeURIComponent`.
   */
  readonly path: string;
  /**
   * Query parameters in the order they are sent, values as text, not yet percent-encoded
   * (`[['media', 'sound:beep,sound:hello']]`). A list value is already joined with commas.
   * An in-process transport may turn it into a record with `Object.fromEntries(query)`.
   */
  readonly query: readonly (readonly [key: string, value: string])[];
  /** The JSON body, when the operation has one (`{ variables: {...} }`); absent otherwise. */
  readonly body?: unknown;
  /**
   * Aborted when the caller cancels or the request times out; the transport should stop work.
   * Given to {@link RestTransport.send} only: a request started with `dispatch` is cancelled
   * through the handle `dispatch` returns.
   */
  readonly signal?: AbortSignal;
}

/**
 * How a transport reports the progress of one request started with {@link RestTransport.dispatch}.
 * The REST client implements it; a transport calls `dispatched` when the request goes out, then
 * exactly one of `replied` or `failed`. Calls after the request was cancelled are ignored.
 */
export interface TransportExchange {
  /**
   * The request was written on a connection: the server has it, and the client's reply deadline
   * (`timeoutMs`) starts now. Time spent before (waiting for a free pooled connection,
   * connecting) is not counted. Later calls (a retried request) are ignored.
   */
  dispatched(): void;
  /** The server's reply; error statuses are replies too. */
  replied(reply: TransportResponse): void;
  /**
   * No reply could be had (connection refused or broken, aborted). A `RingflowError` keeps its
   * code; anything else becomes `NETWORK`.
   */
  failed(error: unknown): void;
}

/** Cancels a request started with {@link RestTransport.dispatch}. */
export interface TransportCancel {
  /**
   * Drops the request if it still waits for a connection, aborts it if it is on one. The
   * transport may still report a failure afterwards; the client ignores it. Safe to call twice.
   */
  cancel(reason: Error): void;
}

/** The reply a transport hands back. Error statuses are replies too, never thrown. */
export interface TransportResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or the text of a non-JSON text body; absent when the body is empty. */
  readonly body?: unknown;
  /** The raw bytes of a binary body (`audio/wav` from `recordings.getStoredFile`). */
  readonly binary?: Uint8Array;
}

/**
 * Moves REST requests to a server and back. The default is {@link UndiciTransport} (HTTP over a
 * keep-alive connection pool); an in-process simulator can implement it without sockets.
 * Authentication is the transport's business: credentials never appear in a TransportRequest.
 *
 * A transport rejects only when no reply could be had (connection refused or broken, aborted);
 * it may reject with a `RingflowError` to choose the error code, anything else becomes `NETWORK`.
 *
 * @example
 * const transport: RestTransport = {
 *   async send(req) {
 *     const query = Object.fromEntries(req.query);
 *     return simulator.handle(req.method, req.path, query, req.body); // { status, headers, body }
 *   },
 * };
 * const client = createRestClient({ url: 'http://sim/ari', username: 'u', password: 'p', transport });
 */
export interface RestTransport {
  send(request: TransportRequest): Promise<TransportResponse>;
  /**
   * Optional, cheaper and more precise than `send`: starts `request` and reports to `exchange`
   * when it is written on a connection and how it ended, and returns its cancel handle. The
   * client uses it when present: no promise or AbortSignal per request, and the reply deadline
   * counts from `exchange.dispatched()`, so a request queued behind busy pooled connections does
   * not time out while it waits. With `send` only, the deadline counts from the call to `send`.
   *
   * @example
   * dispatch(req, exchange) {
   *   exchange.dispatched();
   *   simulator.handle(req).then((reply) => exchange.replied(reply), (e) => exchange.failed(e));
   *   return { cancel() {} };
   * }
   */
  dispatch?(request: TransportRequest, exchange: TransportExchange): TransportCancel;
  /** Releases connections; pending requests may finish. Called by `client.close()`. */
  close?(): Promise<void>;
}
