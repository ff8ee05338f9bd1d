/**
 * @ringflow/runtime/engine: the engine of a call machine's actions and delays, on its own (no
 * application, no server link), for code that builds machines without running them (the flow
 * compiler). Everything here is also exported by `@ringflow/runtime`.
 */
export { EffectRunner, effectSite } from './EffectRunner.ts';
export type { EffectSite, EffectTarget, PersistedEffects, ResumeSites } from './EffectRunner.ts';
export { lowerEffects, RESUMED_EVENT } from './lowerEffects.ts';
export type { LoweredStates } from './lowerEffects.ts';
export type {
  Action,
  EffectSpec,
  EngineArgs,
  InvokeSpec,
  ResumeRule,
  StateSpec,
  TransitionSpec,
  Transitions,
} from './MachineSpec.ts';
export { defineLiveValue, PERSIST, reviveLiveValues, toPlainData } from '../snapshot/liveValues.ts';
export type { LiveValueReviver, Persistable, PersistedValue } from '../snapshot/liveValues.ts';
export { nextKeyWithinMs, pressKey } from '../behaviours/digitEntry.ts';
export type { DigitEntryRules, KeyVerdict } from '../behaviours/digitEntry.ts';
export { playbackEnd, stopPrompt } from '../behaviours/prompt.ts';
export type { PlaybackEnd } from '../behaviours/prompt.ts';
export { recordingEnd } from '../behaviours/recording.ts';
export type { RecordingEnd } from '../behaviours/recording.ts';
export { dialOutcomeForCause, ringGroupOutcome } from '../behaviours/dialling.ts';
export type { UnansweredReason } from '../behaviours/dialling.ts';
