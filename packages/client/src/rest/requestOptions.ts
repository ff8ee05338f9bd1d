/** Per-request options accepted by every operation of the REST client. */
export interface RequestOptions {
  /** Cancels the request, whether it still waits for a pooled connection or is on one. */
  signal?: AbortSignal;
  /**
   * Overrides the client's timeout for this request, in milliseconds: how long the server may
   * take to reply once the request is written on a connection (waiting for a free pooled
   * connection does not count). 0 disables it.
   */
  timeoutMs?: number;
}
