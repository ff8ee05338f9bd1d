import { answer } from './answer.ts';
import { bridgeWith } from './bridgeWith.ts';
import { collectDigits } from './collectDigits.ts';
import { continueAt } from './continueAt.ts';
import { dial } from './dial.ts';
import { hangup } from './hangup.ts';
import { joinBridge } from './joinBridge.ts';
import { play } from './play.ts';
import { record } from './record.ts';
import { request } from './request.ts';
import { snoop } from './snoop.ts';
import { userEvent } from './userEvent.ts';

/**
 * Every call actor, ready for `setup({ actors: callActors })`; invoke them by name (`src: 'play'`).
 *
 * @example
 * const machine = setup({ types: { input: {} as CallInput }, actors: callActors }).createMachine({ ... });
 */
export const callActors = {
  request,
  answer,
  hangup,
  play,
  collectDigits,
  record,
  dial,
  bridgeWith,
  joinBridge,
  snoop,
  continueAt,
  userEvent,
};

export {
  answer,
  bridgeWith,
  collectDigits,
  continueAt,
  dial,
  hangup,
  joinBridge,
  play,
  record,
  request,
  snoop,
  userEvent,
};
export { callActor } from './callActor.ts';
export type { CallActorInput, CallActorOptions, CallStep, WithCall } from './callActor.ts';
export type { BridgeWithInput, BridgeWithOutput } from './bridgeWith.ts';
export type { CollectDigitsInput, CollectDigitsOutput } from './collectDigits.ts';
export type { ContinueAtInput } from './continueAt.ts';
export { dialLeg } from './dial.ts';
export type { DialInput, DialOutput } from './dial.ts';
export type { HangupInput } from './hangup.ts';
export type { JoinBridgeInput } from './joinBridge.ts';
export type { PlayInput, PlayOutput } from './play.ts';
export type { RecordInput, RecordOutput } from './record.ts';
export type { OperationRequestInput, RequestInput } from './request.ts';
export type { SnoopInput } from './snoop.ts';
export type { UserEventInput } from './userEvent.ts';
