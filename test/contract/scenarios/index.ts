import type { Scenario } from '../Scenario.ts';
import { applicationReplacedScenario } from './applicationReplacedScenario.ts';
import { applicationsScenario } from './applicationsScenario.ts';
import { bridgeScenario } from './bridgeScenario.ts';
import { callFromDialplanScenario, twoCallsScenario } from './callFromDialplanScenario.ts';
import { channelControlsScenario } from './channelControlsScenario.ts';
import { continueScenario } from './continueScenario.ts';
import { deviceStatesScenario } from './deviceStatesScenario.ts';
import { dtmfScenario } from './dtmfScenario.ts';
import { dynamicConfigScenario } from './dynamicConfigScenario.ts';
import { endpointsScenario } from './endpointsScenario.ts';
import { errorBodiesScenario } from './errorBodiesScenario.ts';
import { hangupReasonScenario } from './hangupReasonScenario.ts';
import { logChannelsScenario } from './logChannelsScenario.ts';
import { mailboxesScenario } from './mailboxesScenario.ts';
import { modulesScenario } from './modulesScenario.ts';
import { originateLocalPairScenario } from './originateLocalPairScenario.ts';
import { playbackScenario } from './playbackScenario.ts';
import { recordingScenario } from './recordingScenario.ts';
import { snoopScenario } from './snoopScenario.ts';
import { userEventsScenario } from './userEventsScenario.ts';
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
  deviceStatesScenario,
  mailboxesScenario,
  modulesScenario,
  logChannelsScenario,
  dynamicConfigScenario,
  userEventsScenario,
  endpointsScenario,
  applicationsScenario,
  errorBodiesScenario,
  applicationReplacedScenario,
  callFromDialplanScenario,
  twoCallsScenario,
];
