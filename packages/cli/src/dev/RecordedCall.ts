import type { AgentTurn, CallEnd } from './feedMessages.ts';

/**
 * What the console saw of one call: enough to replay the caller's side in a scenario and to
 * expect what the flow did (see callToScenario). Times are milliseconds from the moment the call
 * was placed.
 */
export interface RecordedCall {
  /** The call's channel id in the console (`call-1`). */
  readonly id: string;
  /** The flow's name, and the file it was read from. */
  readonly flow: string;
  readonly flowFile: string;
  /** When the call was placed (ms since the epoch): the scenario starts then, so hours match. */
  readonly startedAt: number;
  readonly caller: string;
  /** The number dialled, as the call's channel had it (`s` when it entered the flow directly). */
  readonly extension?: string;
  readonly language?: string;
  /** The arguments the dialplan gave the application (`Stasis(ivr,desk)`), when it gave some. */
  readonly args?: readonly string[];
  /** The flow inputs the application ran it with (`ringflow run --input`), when it was given some. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /** What the caller and the far ends' people did, oldest first. */
  readonly actions: readonly CallerAction[];
  /** The far ends the flow dialled, in the order they rang. */
  readonly farEnds: readonly RecordedFarEnd[];
  /** The flow states the call entered, in order. */
  readonly states: readonly string[];
  /** The requests the call's flow made, oldest first. */
  readonly requests: readonly FlowRequest[];
  /** The ids the flow picked for what it created (channels, playbacks, bridges...). */
  readonly pickedIds: readonly string[];
  /** The turns of its agent steps (between ringflow and the bots), when it had any. */
  readonly agentTurns?: readonly { readonly at: number; readonly turn: AgentTurn }[];
  /** How the call ended; absent while it goes on. */
  readonly end?: RecordedEnd;
  /** When the record was taken: a call still in progress is replayed up to here. */
  readonly takenAt: number;
}

export type CallerAction =
  | { readonly at: number; readonly kind: 'press'; readonly digits: string }
  | { readonly at: number; readonly kind: 'talk'; readonly talking: boolean }
  | { readonly at: number; readonly kind: 'hangup' }
  /** Words the caller said to an agent step (typed in the softphone). */
  | { readonly at: number; readonly kind: 'say'; readonly text: string }
  /** The person at a dialled far end hung up. */
  | { readonly at: number; readonly kind: 'hangupFarEnd'; readonly endpoint: string };

/** How a far end refuses a call, as a scenario's far ends do (hangup cause 17, 21, 27). */
export type FarEndRefusal = 'busy' | 'reject' | 'unreachable';

/** One dialled far end: when it rang, and what its person did. */
export interface RecordedFarEnd {
  /** `PJSIP/operator`. */
  readonly endpoint: string;
  readonly channel: string;
  readonly ringAt: number;
  /** answered or rejected from the page (at `at`), or never either (rang until the flow gave up). */
  readonly outcome: 'answered' | 'rejected' | 'ringing';
  readonly at?: number;
  /** How a rejected far end refused (the scenario's far-end behaviour); `busy` when not told. */
  readonly refusal?: FarEndRefusal;
}

/** A REST request of the call's flow: its operation and the arguments the flow gave. */
export interface FlowRequest {
  readonly at: number;
  /** `channels.play`. */
  readonly operation: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** How a recorded call ended: when, and the runtime's `status` and `by` (`CallEnd`). */
export interface RecordedEnd extends CallEnd {
  readonly at: number;
}
