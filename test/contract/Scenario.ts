import type { ContractSession } from './ContractSession.ts';

/** One behaviour of the interface, asserted the same way on every target. */
export interface Scenario {
  /** What a user would notice, as the test title. */
  readonly name: string;
  run(session: ContractSession): Promise<void>;
}
