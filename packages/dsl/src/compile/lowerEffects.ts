import { effectDoneType, effectErrorType } from './EffectRunner.ts';
import type { ActionArgs } from './FlowContext.ts';
import type { Action, EffectSpec, StateSpec, Transitions } from './StateSpec.ts';

type EffectActionArgs = ActionArgs & {
  readonly self: Parameters<ActionArgs['context']['effects']['start']>[2];
};

/**
 * Rewrites every state's `effect` into what XState runs: an entry action that starts it on the
 * context's {@link EffectRunner}, an exit action that drops its result if the state is left
 * first, and `on` transitions for its done and error events (`onDone`, `onError`). Sites are
 * numbered in the order met, so each effect of a machine has its own events.
 *
 * @example
 * const states = lowerEffects(compiledStates); // no `effect` left; createMachine takes it as is
 */
export function lowerEffects(states: Readonly<Record<string, StateSpec>>): Record<string, StateSpec> {
  let sites = 0;
  const lowerState = (state: StateSpec): StateSpec => {
    const children = state.states
      ? Object.fromEntries(Object.entries(state.states).map(([name, child]) => [name, lowerState(child)]))
      : undefined;
    const { effect, ...rest } = state;
    const lowered: StateSpec = children ? { ...rest, states: children } : rest;
    return effect ? withEffect(lowered, effect, `e${sites++}`) : lowered;
  };
  return Object.fromEntries(Object.entries(states).map(([name, state]) => [name, lowerState(state)]));
}

function withEffect(state: StateSpec, effect: EffectSpec, site: string): StateSpec {
  // Without `onDone` nothing takes a success: not reporting it spares the machine a macrostep.
  const reportDone = effect.onDone ? (effect.doneWhen ?? (() => true)) : () => false;
  const start = (args: ActionArgs): void => {
    const { context, self } = args as EffectActionArgs;
    context.effects.start(site, () => effect.run(args), self, reportDone);
  };
  const cancel = ({ context }: ActionArgs): void => context.effects.cancel(site);
  const on: Record<string, Transitions> = { ...state.on, [effectErrorType(site)]: effect.onError };
  if (effect.onDone) on[effectDoneType(site)] = effect.onDone;
  return {
    ...state,
    entry: [...(state.entry ?? []), start as Action],
    exit: [cancel as Action, ...(state.exit ?? [])],
    on,
  };
}
