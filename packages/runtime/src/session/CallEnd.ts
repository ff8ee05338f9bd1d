import type { SessionOutcome } from './CallEnded.ts';

/**
 * How a call ended, in one vocabulary: the same two words in the `call ended` log line, the
 * `ringflow_calls_ended_total` metric, the console, `ringflow test`, saved scenarios
 * (`expect: { end: { status: hungUp, by: caller } }`) and `testFlow(...).end()`.
 *
 * `status`, what became of the call:
 * - `completed`: the call's logic ended by itself (a final state, or it hung up) with no failure;
 * - `recovered`: a step failed, the flow's error handler took over and the flow ended by itself;
 * - `failed`: a step failed and nothing handled it, or the machine itself failed;
 * - `hungUp`: the caller hung up (or the call was taken out of the application) first;
 * - `continued`: the call's logic sent it on in the dialplan;
 * - `transferred`: the call's logic transferred it to an endpoint (the server's redirect: a SIP
 *   REFER or its equivalent) and it left the application;
 * - `unanswered`: an outbound call that never entered the application;
 * - `drained`, `stopped`, `detached`: the application ended it (drain deadline, stop) or let it go
 *   untouched for another process to take over.
 */
export const CALL_END_STATUSES = [
  'completed',
  'recovered',
  'failed',
  'hungUp',
  'continued',
  'transferred',
  'unanswered',
  'drained',
  'stopped',
  'detached',
] as const;
export type CallEndStatus = (typeof CALL_END_STATUSES)[number];

/**
 * `by`, who ended it:
 * - `caller`: the party on the call's channel (the caller of an inbound call, the called party of
 *   an outbound one) hung up or declined;
 * - `flow`: the call's logic hung it up (or moved it on);
 * - `dialplan`: the call's logic continued it in the dialplan;
 * - `server`: the server ended it or took it away (another client moved it; it was found gone
 *   after an event stream gap; an outbound call that failed);
 * - `application`: the application ended it (a drain deadline, a stop, a hand-over).
 */
export const ENDED_BY = ['caller', 'flow', 'dialplan', 'server', 'application'] as const;
export type EndedBy = (typeof ENDED_BY)[number];

/** How a call ended: a status and who ended it. */
export interface CallEnd {
  readonly status: CallEndStatus;
  readonly by: EndedBy;
}

/** The results a call's logic may report (a compiled flow's output `status`). */
const LOGIC_RESULTS: ReadonlySet<string> = new Set([
  'completed',
  'recovered',
  'failed',
  'hungUp',
  'continued',
  'transferred',
]);

/**
 * The call's end from the session's outcome, the result its logic reported (if any), who was
 * first to end the channel (`endedBy`: the application's own leaving request, or the channel's
 * end arriving before any), and whether that request transferred the call away (a redirect).
 */
export function callEndOf(
  outcome: SessionOutcome,
  result: string | undefined,
  endedBy: EndedBy | undefined,
  transferredAway = false,
): CallEnd {
  const logic = result !== undefined && LOGIC_RESULTS.has(result) ? (result as CallEndStatus) : undefined;
  switch (outcome) {
    case 'drained':
    case 'stopped':
    case 'detached':
      return { status: outcome, by: 'application' };
    case 'unanswered':
      return { status: 'unanswered', by: endedBy ?? 'server' };
    case 'failed':
      return { status: 'failed', by: endedBy ?? 'flow' };
    case 'reconciled':
      return { status: logic ?? 'hungUp', by: endedBy ?? 'server' };
    case 'completed': {
      const by = endedBy ?? 'server';
      // Its logic handed the caller over (an attended transfer that stepped out): whoever hangs
      // up afterwards ends the conversation, not the call's logic.
      if (logic === 'transferred') return { status: 'transferred', by: 'flow' };
      // A caller who left first makes it `hungUp`, whatever the hangup handler did afterwards.
      if (by === 'caller') return { status: 'hungUp', by };
      // Transferred away by its logic: whatever the flow then reports of its own end.
      if (transferredAway && by === 'flow') return { status: 'transferred', by };
      const fallback: CallEndStatus =
        by === 'dialplan' ? 'continued' : by === 'flow' ? 'completed' : 'hungUp';
      return { status: logic ?? fallback, by };
    }
  }
}

/** `hungUp, by the caller`: the end as the command line, the console and test reports say it. */
export function formatCallEnd(end: CallEnd): string {
  return `${end.status}, by the ${end.by}`;
}
