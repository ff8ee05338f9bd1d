import type { StateValue } from 'xstate';
import type { StepFailure } from '../call/StepFailure.ts';
import { callEndOf, type EndedBy } from './CallEnd.ts';
import type { CallEnded, SessionOutcome } from './CallEnded.ts';

/** The `status` a machine's output reports (compiled flows do: completed, recovered, failed...). */
function resultOf(output: unknown): string | undefined {
  const status =
    typeof output === 'object' && output !== null && 'status' in output ? output.status : undefined;
  return typeof status === 'string' ? status : undefined;
}

/** The state a machine's output says it ended in (compiled flows: their last flow state). */
function finalState(output: unknown): string | undefined {
  const state = typeof output === 'object' && output !== null && 'state' in output ? output.state : undefined;
  return typeof state === 'string' ? state : undefined;
}

/** Where the call's machine was when the session ended. */
export interface MachineAtEnd {
  readonly status: string | undefined;
  readonly value: StateValue | undefined;
  readonly output: unknown;
}

/** Facts of the call the end report needs from the session. */
export interface CallFacts {
  readonly callId: string;
  readonly app: string | undefined;
  readonly server: string;
  readonly direction: 'inbound' | 'outbound';
  readonly startedAt: number;
}

/**
 * What a call's end says, gathered while it runs: the step failures its logic reported (the
 * last one kept, an unhandled one preferred), and the hangup cause of its channel. At the end
 * it makes the {@link CallEnded} report and the fields of the `call ended` log line.
 */
export class CallReport {
  private lastFailure: StepFailure | undefined;
  private failureCount = 0;
  private cause: { cause?: number; causeText?: string } = {};
  private firstToEnd: EndedBy | undefined;
  private transferredAway = false;
  private phoneTransfers = 0;

  /** Failures reported so far (restored with a call taken over from its record). */
  get failures(): number {
    return this.failureCount;
  }

  get failure(): StepFailure | undefined {
    return this.lastFailure;
  }

  /** Takes up the failures of a call restored from its record. */
  restore(failures: number, lastFailure: StepFailure | undefined): void {
    this.failureCount = failures;
    this.lastFailure = lastFailure;
  }

  /** A step failed; the one the end shows is the last one nothing in the step handled, else the last. */
  noteFailure(failure: StepFailure): void {
    this.failureCount++;
    if (failure.unhandled || !this.lastFailure?.unhandled) this.lastFailure = failure;
  }

  /**
   * Who was first to end the call's channel: the application's own leaving request (`flow`,
   * `dialplan`) or the channel's end arriving before any (`caller`, `server`). The first one
   * told counts.
   */
  noteEndedBy(by: EndedBy, transfer = false): void {
    if (this.firstToEnd !== undefined) return;
    this.firstToEnd = by;
    this.transferredAway = transfer;
  }

  /** A phone transferred the call: its channel was replaced, and the call went on. */
  noteTransfer(): void {
    this.phoneTransfers++;
  }

  /** The channel's hangup cause, from ChannelHangupRequest or ChannelDestroyed. */
  noteCause(event: { readonly cause?: unknown; readonly cause_txt?: unknown }): void {
    if (typeof event.cause === 'number') this.cause = { ...this.cause, cause: event.cause };
    if (typeof event.cause_txt === 'string') this.cause = { ...this.cause, causeText: event.cause_txt };
  }

  /** The report of the call's end, and the fields and level of its `call ended` line. */
  ended(
    call: CallFacts,
    outcome: SessionOutcome,
    machine: MachineAtEnd | undefined,
    endedAt: number,
  ): { report: CallEnded; troubled: boolean; logFields: Record<string, unknown> } {
    const status = machine?.status;
    const output = status === 'done' ? machine?.output : undefined;
    const result = resultOf(output);
    const end = callEndOf(outcome, result, this.firstToEnd, this.transferredAway);
    const report: CallEnded = {
      callId: call.callId,
      app: call.app,
      server: call.server,
      direction: call.direction,
      status: end.status,
      by: end.by,
      outcome,
      machineStatus: status === 'done' || status === 'error' || status === 'active' ? status : 'none',
      output,
      snapshotValue: machine?.value,
      ...(result !== undefined ? { result } : {}),
      ...(this.lastFailure ? { failure: this.lastFailure } : {}),
      failures: this.failureCount,
      ...(this.phoneTransfers > 0 ? { transfers: this.phoneTransfers } : {}),
      ...this.cause,
      startedAt: call.startedAt,
      endedAt,
      durationMs: endedAt - call.startedAt,
    };
    // A call whose logic failed, or got through only by its error handler, is not a plain success.
    const troubled =
      this.lastFailure?.unhandled === true ||
      result === 'failed' ||
      result === 'recovered' ||
      outcome === 'failed';
    const logFields = {
      status: end.status,
      by: end.by,
      // The session's own word too: tools that read the log (a cluster's tests, log queries)
      // tell a hand-over (`detached`) or a gap's end (`reconciled`) by it.
      outcome,
      machine: report.machineStatus,
      ...(this.phoneTransfers > 0 ? { transfers: this.phoneTransfers } : {}),
      ...(status === 'active' || status === 'done' ? { state: finalState(output) ?? machine?.value } : {}),
      ...(this.lastFailure ? { failures: this.failureCount, failure: this.lastFailure } : {}),
    };
    return { report, troubled, logFields };
  }
}
