import type { Scenario } from '../Scenario.ts';
import { channelControlsScenario } from './channelControlsScenario.ts';
import { dtmfScenario } from './dtmfScenario.ts';
import { originateLocalPairScenario } from './originateLocalPairScenario.ts';
import { playbackScenario } from './playbackScenario.ts';
import { variablesScenario } from './variablesScenario.ts';

/** Every scenario of the contract, in the order the reference traces cover them. */
export const scenarios: readonly Scenario[] = [
  originateLocalPairScenario,
  playbackScenario,
  dtmfScenario,
  channelControlsScenario,
  variablesScenario,
];
