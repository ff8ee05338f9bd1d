import type { ContractSession } from './ContractSession.ts';

/** One behaviour of the interface, asserted the same way on every target. */
export interface Scenario {
  /** What a user would notice, as the test title. */
  readonly name: string;
  /**
   * Why the scenario has no equivalent when the server dials one connection per call (it is
   * skipped on the per-call targets); absent when it runs there too.
   */
  readonly notPerCall?: string;
  run(session: ContractSession): Promise<void>;
}

/**
 * A scenario that listens with `subscribeAll` sees every event of the server on one connection.
 * A per-call connection carries one call's application (`app:<channel>`); with `subscribe_all`
 * each call's connection would get every event, so no per-call form has the same transcript.
 */
export const LISTENS_TO_EVERYTHING =
  'it listens with subscribeAll: a per-call connection carries the events of one call only';
