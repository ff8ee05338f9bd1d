/**
 * The end of one call session, from every way a call ends: its channel leaving the application
 * ({@link finishSession}: the session closes, waiting for the requests whose replies may still
 * bring the machine to its final state), its machine done ({@link machineDone}: the session hangs
 * up) or failed ({@link failSession}), or an end decided from outside (drain, stop, detach,
 * reconcile). {@link endSession} releases everything the call held, in this process and on the
 * server, and tells how the call ended.
 */

import { ErrorCode, isResourceGone, RingflowError } from '@ringflow/client';
import type { SessionOutcome } from './CallEnded.ts';
import { releaseOnServer } from './releaseOnServer.ts';
import type { SessionState } from './SessionState.ts';

/**
 * How long a call whose channel left the application waits for its requests still in flight
 * (whose replies may bring the machine to its final state) before its machine is stopped anyway.
 */
const CLOSING_GRACE_MS = 5000;

/**
 * The reason the call's signal aborts when the session ends. One shared error: building one per
 * call (a `RingflowError` with its stack trace) showed up in load profiles, and whoever sees it
 * only needs to know that the call is over (the session's `result` says how it ended).
 */
export const CALL_ENDED: RingflowError = new RingflowError(
  ErrorCode.ABORTED,
  'the call has ended; its pending requests and waits were cancelled. Check call.ended before sending.',
);

/**
 * The call's channel left the application (StasisEnd, ChannelDestroyed). The machine has been
 * given the event and may still reach its final state: the reply of the request that made the
 * channel leave (a hangup, a continue) usually arrives after its StasisEnd. So the session waits
 * for its requests in flight (at most {@link CLOSING_GRACE_MS}), then one tick of the clock for
 * their results to reach the machine, and only then stops it and ends.
 */
export function finishSession(state: SessionState, outcome: SessionOutcome): void {
  if (state.phase.name === 'ended' || state.phase.name === 'closing') return;
  if (!state.machine?.active) {
    endSession(state, outcome);
    return;
  }
  state.phase = { name: 'closing', outcome, settling: undefined };
  state.leaving = true;
  state.session.clock.setTimeout(() => endSession(state, outcome), CLOSING_GRACE_MS);
  settleClosing(state);
}

/** While closing: once no request is in flight, end on the next tick of the clock. */
export function settleClosing(state: SessionState): void {
  const { phase, requests } = state;
  if (phase.name !== 'closing' || requests.inFlight > 0 || phase.settling) return;
  phase.settling = state.session.clock.setTimeout(() => {
    phase.settling = undefined;
    if (requests.inFlight === 0) endSession(state, phase.outcome);
  }, 0);
}

/** The machine reached a final state: hang up unless the channel is already leaving. */
export function machineDone(state: SessionState): void {
  if (state.phase.name === 'closing') {
    endSession(state, state.phase.outcome);
    return;
  }
  if (state.ended || state.leaving) return;
  state.log('debug', 'machine finished with the channel still in the application; hanging up');
  state.leaving = true;
  const { session } = state;
  session.send('channels.hangup', { channelId: session.channelId }).catch((error: unknown) => {
    if (isResourceGone(error) || state.ended) return;
    // The caller must not stay connected to nothing: the session ends, and the hangup goes on
    // as a cleanup request, retried (a lost reply's hangup done meanwhile answers 404: done).
    state.log('warn', 'hangup after the machine finished failed; retrying it as cleanup', {
      err: error,
    });
    state.leaving = false;
    endSession(state, 'failed', true);
  });
}

/** The machine failed, or none could be picked: end, hanging up unless the channel is leaving. */
export function failSession(state: SessionState): void {
  if (state.ended) return;
  const hangUp = !state.leaving && !state.isGone(state.session.channelId);
  endSession(state, 'failed', hangUp);
}

/**
 * Ends the session: stops the machine, cancels requests, clears timers, completes the event
 * stream, removes routes, and cleans up on the server what the call created (nothing when the
 * call is handed over: `detached`).
 * @param hangUpMain also hang up the main channel (drain deadline, failures, stop).
 */
export function endSession(state: SessionState, outcome: SessionOutcome, hangUpMain = false): void {
  if (state.ended) return;
  const { session, host, recorder, owned } = state;
  const { clock } = session;
  const detached = outcome === 'detached';
  // Handed over: the last record is written before the machine stops; ended here: removed.
  if (detached) recorder?.flush();
  recorder?.close(!detached);
  state.phase = { name: 'ended', outcome };
  const machineAtEnd = state.machine?.stop();
  state.abort?.abort(CALL_ENDED);
  state.requests.cancelAll(CALL_ENDED);
  clock.clearAll();
  state.eventStream?.complete();
  const ownedAtEnd = owned.list();
  owned.releaseRoutes();
  // A call handed over to another process keeps everything on the server.
  if (!detached)
    releaseOnServer(
      {
        channelId: session.channelId,
        owned: ownedAtEnd,
        hangUpMain,
        leaving: state.leaving,
        isGone: (id) => state.isGone(id),
      },
      host,
      (message, details) => state.log('debug', message, details),
    );
  const { report, troubled, logFields } = state.report().ended(
    {
      callId: session.id,
      app: state.app,
      server: session.server.name,
      direction: session.direction,
      startedAt: state.startedAt,
    },
    outcome,
    machineAtEnd,
    clock.now(),
  );
  state.result = report;
  state.log(troubled ? 'warn' : 'info', 'call ended', logFields);
  state.options.onEnded(session, report);
  state.resolveDone(outcome);
}
