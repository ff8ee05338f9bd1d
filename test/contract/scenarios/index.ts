import type { Scenario } from '../Scenario.ts';
import { bridgeScenario } from './bridgeScenario.ts';
import { channelControlsScenario } from './channelControlsScenario.ts';
import { continueScenario } from './continueScenario.ts';
import { dtmfScenario } from './dtmfScenario.ts';
import { hangupReasonScenario } from './hangupReasonScenario.ts';
import { originateLocalPairScenario } from './originateLocalPairScenario.ts';
import { playbackScenario } from './playbackScenario.ts';
import { recordingScenario } from './recordingScenario.ts';
import { snoopScenario } from './snoopScenario.ts';
import { variablesScenario } from './variablesScenario.ts';

/** Every scenario of the contract, in the order the reference traces cover them. */
export const scenarios: readonly Scenario[] = [
  originateLocalPairScenario,
  playbackScenario,
  dtmfScenario,
  channelControlsScenario,
  recordingScenario,
  bridgeScenario,
  variablesScenario,
  continueScenario,
  hangupReasonScenario,
  snoopScenario,
];
