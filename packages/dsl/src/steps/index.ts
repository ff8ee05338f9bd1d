import {
  bridgeMohStep,
  bridgeRecordStep,
  bridgePlayStep,
  conferenceStep,
  kickStep,
  leaveBridgeStep,
  talkDetectionStep,
  videoSourceStep,
} from './bridgeSteps.ts';
import {
  continueStep,
  deviceStateStep,
  getChannelVarStep,
  hangupStep,
  mailboxStep,
  originateStep,
  sendMessageStep,
  setChannelVarStep,
  snoopStep,
  userEventStep,
} from './callSteps.ts';
import {
  answerStep,
  holdStep,
  muteStep,
  ringStep,
  startMohStep,
  startSilenceStep,
  stopMohStep,
  stopRingingStep,
  stopSilenceStep,
  unholdStep,
  unmuteStep,
} from './channelControl.ts';
import { agentStep } from './agent.ts';
import { detectMachineStep } from './detectMachine.ts';
import { dialStep } from './dial.ts';
import { httpStep, setStep, subflowStep, waitStep } from './flowSteps.ts';
import { gatherStep } from './gather.ts';
import { menuStep } from './menu.ts';
import { playStep } from './play.ts';
import { queueStep } from './queue.ts';
import { queueAgentStep } from './queueAgent.ts';
import { recordStep } from './record.ts';
import type { StepDefinition } from './StepDefinition.ts';
import { transferStep } from './transfer.ts';

/** Every built-in step, by the key that names it in a flow. */
export const steps = {
  answer: answerStep,
  play: playStep,
  gather: gatherStep,
  menu: menuStep,
  record: recordStep,
  conference: conferenceStep,
  leaveBridge: leaveBridgeStep,
  kick: kickStep,
  bridgePlay: bridgePlayStep,
  bridgeMoh: bridgeMohStep,
  bridgeRecord: bridgeRecordStep,
  videoSource: videoSourceStep,
  talkDetection: talkDetectionStep,
  dial: dialStep,
  queue: queueStep,
  queueAgent: queueAgentStep,
  transfer: transferStep,
  detectMachine: detectMachineStep,
  originate: originateStep,
  continue: continueStep,
  userEvent: userEventStep,
  sendMessage: sendMessageStep,
  setChannelVar: setChannelVarStep,
  getChannelVar: getChannelVarStep,
  set: setStep,
  hold: holdStep,
  unhold: unholdStep,
  mute: muteStep,
  unmute: unmuteStep,
  ring: ringStep,
  stopRinging: stopRingingStep,
  startSilence: startSilenceStep,
  stopSilence: stopSilenceStep,
  startMoh: startMohStep,
  stopMoh: stopMohStep,
  snoop: snoopStep,
  deviceState: deviceStateStep,
  mailbox: mailboxStep,
  http: httpStep,
  wait: waitStep,
  hangup: hangupStep,
  subflow: subflowStep,
  agent: agentStep,
} as const;

export type StepName = keyof typeof steps;

/**
 * A step definition by name, for the compiler and validator, which dispatch on the key: its
 * parameters are `unknown` here, and are what its own schema accepted (the validator checks them
 * first).
 */
export function stepDefinition(name: string): StepDefinition<unknown> | undefined {
  return Object.hasOwn(steps, name) ? (steps[name as StepName] as StepDefinition<unknown>) : undefined;
}
