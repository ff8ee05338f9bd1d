/**
 * A step of a call's logic that failed, as the logic reports it (`call.reportFailure`): where it
 * was, what it asked the server, what the server said, and what the logic did next. The runtime
 * logs it (a `warn` line), counts it (`ringflow_step_failures_total`) and keeps the last one for
 * the call's end (`CallEnded.failure`, the `call ended` line). Compiled flows report every step
 * failure this way; a hand-written machine may too.
 *
 * @example
 * call.reportFailure({ flow: 'conference', state: 'moderator', step: 'conference', index: 1,
 *   at: 'flows/conference.yaml:112:9', message: 'bridges.createWithId failed: ... 409',
 *   operation: 'bridges.createWithId', status: 409, serverMessage: "Bridge with id 'x' already exists",
 *   next: "the flow's on.error: apologise" });
 */
export interface StepFailure {
  /** The flow (or machine) whose step failed. */
  readonly flow: string;
  /** The state the step belongs to. */
  readonly state: string;
  /** The step's name (`conference`, `play`...). */
  readonly step: string;
  /** The step's position in its state's list, from 0. */
  readonly index: number;
  /** Where the step is written: `file:line:col`, or the source and path for flows built in code. */
  readonly at?: string;
  /** What went wrong, in a sentence (the error's message). */
  readonly message: string;
  /** The operation that failed (`bridges.createWithId`), when it was a request. */
  readonly operation?: string;
  /** The HTTP status the server answered, when it answered. */
  readonly status?: number;
  /** The server's own explanation, when it gave one. */
  readonly serverMessage?: string;
  /** What kind of failure: the server refused, no reply in time, an expression, anything else. */
  readonly cause: 'refused' | 'timeout' | 'network' | 'expression' | 'other';
  /** What the logic did next (not `then`: an object with a `then` would pass for a promise): `the step's on.failed: retry`, `the flow's on.error: apologise`, `ended the call`. */
  readonly next: string;
  /** The failure went to an error handler or ended the call (not routed by the step itself). */
  readonly unhandled: boolean;
}
