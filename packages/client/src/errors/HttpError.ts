import { ErrorCode, RingflowError } from './RingflowError.ts';
import type { HttpMethod } from '../description/spec.ts';

/** What an {@link HttpError} knows about the failed exchange. */
export interface HttpErrorDetails {
  /** HTTP status the server answered with (404, 409, ...). */
  readonly status: number;
  /** The operation that failed, as `resource.name` (`channels.answer`). */
  readonly operation: string;
  readonly method: HttpMethod;
  /** Path below the interface root, as sent (`/channels/c1/answer`); never carries the query. */
  readonly path: string;
  /** The server's own explanation: `message` (or the rare `error`) of a JSON body, else the body text, truncated. */
  readonly serverMessage: string;
  /** The reply body as received (parsed JSON or text), for callers that need more than the message. */
  readonly body?: unknown;
  /**
   * The 404 means that the channel, bridge, playback or recording the operation addresses no
   * longer exists (hung up, destroyed, finished). Decided by the client from the operation.
   */
  readonly resourceGone?: boolean;
}

/** Short advice for statuses whose cause is on the caller's side. */
const HINTS: Readonly<Record<number, string>> = {
  401: "check the username and password: an ARI user of the server's ari.conf",
  403: 'the user may be read_only, or the backing store does not allow the change',
  405: 'the server does not offer this method on that path; is the server older than the operation?',
};

/**
 * The server answered with an error status. Branch on `status`, `isNotFound` or `isResourceGone`;
 * `serverMessage` is the server's own text.
 *
 * @example
 * try { await client.channel('c1').answer(); }
 * catch (e) { if (e instanceof HttpError && e.isResourceGone) return; throw e; }
 */
export class HttpError extends RingflowError {
  override name = 'HttpError';
  readonly status: number;
  readonly operation: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly serverMessage: string;
  readonly body: unknown;
  /** True for a 404 on an operation that addresses a channel, bridge, playback or recording that is gone. */
  readonly isResourceGone: boolean;

  constructor(details: HttpErrorDetails, options?: { cause?: unknown }) {
    const hint = HINTS[details.status];
    super(
      ErrorCode.HTTP_ERROR,
      `${details.operation} failed: ${details.method} ${details.path} answered ${details.status}` +
        (details.serverMessage ? ` "${details.serverMessage}"` : '') +
        (hint ? ` (${hint})` : ''),
      options,
    );
    this.status = details.status;
    this.operation = details.operation;
    this.method = details.method;
    this.path = details.path;
    this.serverMessage = details.serverMessage;
    this.body = details.body;
    this.isResourceGone = details.status === 404 && details.resourceGone === true;
  }

  /** The server answered 404 (the resource, or something the request names, does not exist). */
  get isNotFound(): boolean {
    return this.status === 404;
  }
}
