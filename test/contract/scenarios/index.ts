import type { Scenario } from '../Scenario.ts';
import { originateLocalPairScenario } from './originateLocalPairScenario.ts';

/** Every scenario of the contract, in the order the reference traces cover them. */
export const scenarios: readonly Scenario[] = [originateLocalPairScenario];
