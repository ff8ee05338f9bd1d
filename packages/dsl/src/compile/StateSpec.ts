import type { ActionArgs } from './FlowContext.ts';

import type {
  Action as EngineAction,
  EffectSpec as EngineEffectSpec,
  InvokeSpec as EngineInvokeSpec,
  StateSpec as EngineStateSpec,
  TransitionSpec as EngineTransitionSpec,
  Transitions as EngineTransitions,
} from '@ringflow/runtime/engine';

/**
 * The state configuration the compiler writes: the runtime engine's machine specification
 * (`@ringflow/runtime`, `engine/MachineSpec.ts`) with a flow's action arguments.
 */
export type Action = EngineAction<ActionArgs>;
export type TransitionSpec = EngineTransitionSpec<ActionArgs>;
export type Transitions = EngineTransitions<ActionArgs>;
export type InvokeSpec = EngineInvokeSpec<ActionArgs>;
export type EffectSpec = EngineEffectSpec<ActionArgs>;
export type StateSpec = EngineStateSpec<ActionArgs>;

/** Adds actions before a transition's own actions. */
export function withActions(transition: TransitionSpec, before: readonly Action[]): TransitionSpec {
  return { ...transition, actions: [...before, ...(transition.actions ?? [])] };
}

/** Adds a guard to a transition (both must hold). */
export function withGuard(transition: TransitionSpec, guard: (args: ActionArgs) => boolean): TransitionSpec {
  const own = transition.guard;
  return { ...transition, guard: own ? (a) => guard(a) && own(a) : guard };
}
