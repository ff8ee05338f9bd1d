/** Per-request options accepted by every operation of the REST client. */
export interface RequestOptions {
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this request, in milliseconds. */
  timeoutMs?: number;
}
