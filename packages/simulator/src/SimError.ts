/**
 * A refusal by the simulated server: the HTTP status and the `message` a real server would send
 * (`{"message": "Channel not found"}`). Thrown anywhere below the router and turned into a
 * response there, so rule code reads like the rule: `throw new SimError(404, 'Channel not found')`.
 */
export class SimError extends Error {
  override name = 'SimError';
  readonly status: number;
  /** Body to send instead of `{message}` (the real server's rare `{"error": ...}` bodies). */
  readonly body?: Record<string, unknown>;

  constructor(status: number, message: string, body?: Record<string, unknown>) {
    super(message);
    this.status = status;
    if (body) this.body = body;
  }
}
