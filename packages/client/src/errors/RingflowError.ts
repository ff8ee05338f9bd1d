/**
 * Stable error codes. Programs branch on `error.code`, never on message text.
 */
export const ErrorCode = {
  /** Parameters failed validation before anything was sent. */
  INVALID_PARAMS: 'INVALID_PARAMS',
  /** The server answered with an HTTP error status. */
  HTTP_ERROR: 'HTTP_ERROR',
  /** The request did not complete within its timeout. */
  TIMEOUT: 'TIMEOUT',
  /** The request was cancelled through its AbortSignal. */
  ABORTED: 'ABORTED',
  /** The server could not be reached or the connection broke. */
  NETWORK: 'NETWORK',
  /** The server sent something that is not valid for the protocol (bad JSON, bad frame). */
  PROTOCOL: 'PROTOCOL',
  /** The client or application was configured wrongly. */
  CONFIG: 'CONFIG',
  /** The object was used after it was closed. */
  CLOSED: 'CLOSED',
  /**
   * Another process took the call over (a shared call store, cluster mode): this one must stop
   * driving it and leave it untouched.
   */
  TAKEN_OVER: 'TAKEN_OVER',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Base class of every error ringflow raises. Carries a stable `code` and the standard `cause`.
 *
 * @example
 * try { await client.channel(id).answer(); }
 * catch (e) { if (e instanceof RingflowError && e.code === ErrorCode.TIMEOUT) retry(); }
 */
export class RingflowError extends Error {
  override name = 'RingflowError';
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
