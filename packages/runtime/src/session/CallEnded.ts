import type { StateValue } from 'xstate';
import type { StepFailure } from '../call/StepFailure.ts';
import type { CallEndStatus, EndedBy } from './CallEnd.ts';

/** How a call session ended. */
export type SessionOutcome =
  /** The channel left the application (hangup, continue, move). */
  | 'completed'
  /** The machine failed (an unhandled error event, an action that threw). */
  | 'failed'
  /** An outbound channel was destroyed before it entered the application. */
  | 'unanswered'
  /** After an event stream gap, the channel was no longer on the server. */
  | 'reconciled'
  /** The drain deadline passed and the call was hung up. */
  | 'drained'
  /** The application stopped. */
  | 'stopped'
  /**
   * The application let the call go without touching it on the server (`app.detach()`): its
   * record stays in the store for another process to take it over.
   */
  | 'detached';

/**
 * How one call ended, told once per call (`app.callEnded$`, `onCallEnded`, `session.result`):
 * why the session ended, and where its machine was then, with the flow's `output` when the
 * machine reached a final state.
 *
 * @example
 * createApplication({ ..., onCallEnded: (c) => log.info({ call: c.callId, outcome: c.outcome, output: c.output }) });
 */
export interface CallEnded {
  /** The session id: the id of the call's main channel. */
  readonly callId: string;
  /** The application the call belonged to (undefined for an outbound call that never entered it). */
  readonly app: string | undefined;
  /** The server's name in the application's options. */
  readonly server: string;
  readonly direction: 'inbound' | 'outbound';
  /**
   * How the call ended, in the one vocabulary of logs, metrics, the console and scenarios (see
   * `CallEnd.ts`): `completed`, `recovered`, `failed`, `hungUp`, `continued`, `unanswered`,
   * `drained`, `stopped`, `detached`.
   */
  readonly status: CallEndStatus;
  /** Who ended it: `caller`, `flow`, `dialplan`, `server`, `application`. */
  readonly by: EndedBy;
  /**
   * Why the session ended, in the runtime's terms (`completed`: the channel left the
   * application; `reconciled`: found gone after an event stream gap; ...). `status` and `by` say
   * it for people.
   */
  readonly outcome: SessionOutcome;
  /**
   * Where the machine was: `done` (it reached a final state: `output` is its output), `active`
   * (the call ended while it still had work to do), `error` (it failed), or `none` (no machine
   * ran: the call never entered the application, or no machine could be picked).
   */
  readonly machineStatus: 'done' | 'active' | 'error' | 'none';
  /** The machine's output when it reached a final state (its `output` definition), else undefined. */
  readonly output: unknown;
  /** The machine's state value at the end (`'done'`, `{ agent: 'talking' }`), undefined when none ran. */
  readonly snapshotValue: StateValue | undefined;
  /**
   * How the call's logic ended, when its machine says (a compiled flow's output `status`):
   * `completed`, `recovered` (a step failed and the flow's error handler finished the call),
   * `failed` (a step failed and nothing handled it), `hungUp` (the caller left first),
   * `continued` (the call went on in the dialplan). Undefined when the machine reports none.
   */
  readonly result?: string;
  /**
   * The last step failure the call's logic reported (`call.reportFailure`) that nothing in the
   * step handled, else the last one the step routed itself; undefined when none was reported.
   */
  readonly failure?: StepFailure;
  /** How many step failures the call's logic reported. */
  readonly failures: number;
  /** How many times a phone transferred the call (its channel replaced; the call went on); absent when none. */
  readonly transfers?: number;
  /** The hangup cause (Q.850) the server reported for the call's channel, when it did. */
  readonly cause?: number;
  readonly causeText?: string;
  /** Clock times (ms) of the session's start and end, and the difference. */
  readonly startedAt: number;
  readonly endedAt: number;
  readonly durationMs: number;
}
