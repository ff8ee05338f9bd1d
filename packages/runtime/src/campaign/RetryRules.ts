import type { ContactOutcome } from './Contact.ts';

/** How often, and how long after, an outcome is tried again. */
export interface RetryRule {
  /** Attempts after the first (0: never again). */
  readonly times: number;
  /** Wait before the next attempt, ms. */
  readonly afterMs: number;
}

/**
 * Retries by outcome (`busy`, `noAnswer`, `machine`, `failed`, or any outcome a flow names).
 * An outcome without a rule is final.
 *
 * @example { busy: { times: 3, afterMs: 600_000 }, noAnswer: { times: 2, afterMs: 1_800_000 } }
 */
export type RetryRules = Readonly<Record<string, RetryRule>>;

/**
 * When to try a contact again after its `attempt`-th attempt (from 1) ended with `outcome`, as
 * a delay in ms; undefined when the outcome is final or its retries are used up. Each outcome
 * counts its own retries (`retriesOf`): busy twice then no answer once uses one of no answer's.
 */
export function retryDelay(
  rules: RetryRules,
  outcome: ContactOutcome,
  retriesOf: (outcome: ContactOutcome) => number,
): number | undefined {
  const rule = Object.hasOwn(rules, outcome) ? rules[outcome] : undefined;
  if (!rule || retriesOf(outcome) >= rule.times) return undefined;
  return rule.afterMs;
}
