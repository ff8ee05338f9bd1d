/**
 * The rules of dialling another party, in one place for the runtime's `dial` and `bridgeWith`
 * call actors and the flow language's `dial` step (one call or a ring group): why a dialled call
 * that was never answered ended, read from its hangup cause.
 */

/** Why a dialled call ended unanswered. */
export type UnansweredReason = 'busy' | 'noAnswer' | 'failed';

/**
 * The reason for a hangup cause (Q.850) of a dialled call that ended before it was answered:
 * 17 user busy; 16 normal clearing, 18 no user responding, 19 no answer, 21 call rejected are
 * `noAnswer` (what a phone that rang out or was declined gives); anything else `failed`
 * (unreachable, congestion, no such endpoint...).
 */
export function dialOutcomeForCause(cause: unknown): UnansweredReason {
  if (cause === 17) return 'busy';
  if (cause === 18 || cause === 19 || cause === 21 || cause === 16) return 'noAnswer';
  return 'failed';
}

/**
 * How a ring group that nobody answered ended, from its calls' hangup causes: `noAnswer` when
 * one of them rang out, `busy` when all were busy, else `failed` (one call: its own cause).
 */
export function ringGroupOutcome(causes: readonly unknown[]): UnansweredReason {
  const outcomes = causes.map(dialOutcomeForCause);
  if (outcomes.includes('noAnswer')) return 'noAnswer';
  if (outcomes.length > 0 && outcomes.every((o) => o === 'busy')) return 'busy';
  return 'failed';
}
