/**
 * Why the `http` step's request failed: no answer in time, the server could not be reached, or it
 * answered with an error status (then `status` and the parsed `body`). The step's `failed` outcome
 * carries these fields.
 *
 * @example
 * throw new HttpStepError('https://crm/x answered 503', 'status', 503, { error: 'down' });
 */
export class HttpStepError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'network' | 'status',
    readonly status?: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'HttpStepError';
  }
}
