import type { TimerHandle } from '@ringflow/client';
import type { SessionOutcome } from './CallEnded.ts';

/**
 * Where a call session is in its life. One value, changed in one place per transition:
 *
 * ```
 * waiting ──StasisStart / adopt / restore──▶ running ──channel left──▶ closing ──settled──▶ ended
 *    │                                          │                                          ▲
 *    └───── unanswered, stop ───────────────────┴── machine done or failed, drain, stop, ──┘
 *                                                   detach, reconcile
 * ```
 *
 * - `waiting`: the session exists (an outbound call is owned before it is created) but its
 *   channel has not entered the application; no machine yet.
 * - `running`: the machine runs. `lateStartExpected`: it was started from a channel listing
 *   after a gap, and the channel's StasisStart may still arrive late (a repeat, dropped once).
 * - `closing`: the channel left the application while the machine still ran; the session waits
 *   for its requests in flight (their replies may bring the machine to its final state), then
 *   one tick of the clock, then ends with `outcome`.
 * - `ended`: everything released; `outcome` says why.
 */
export type SessionPhase =
  | { readonly name: 'waiting' }
  | { readonly name: 'running'; readonly lateStartExpected: boolean }
  | { readonly name: 'closing'; readonly outcome: SessionOutcome; settling: TimerHandle | undefined }
  | { readonly name: 'ended'; readonly outcome: SessionOutcome };
