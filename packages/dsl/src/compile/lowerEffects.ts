import { type EffectSite, effectSite } from './EffectRunner.ts';
import type { ActionArgs } from './FlowContext.ts';
import type { Action, EffectSpec, StateSpec, Transitions } from './StateSpec.ts';

type EffectActionArgs = ActionArgs & {
  readonly self: Parameters<ActionArgs['context']['effects']['start']>[2];
};

/**
 * Rewrites every state's `effect` (and `after` timers, see {@link withTimer}) into what XState
 * runs: an entry action that starts it on the context's {@link EffectRunner}, an exit action that
 * drops its result if the state is left first, and `on` transitions for its done and error events
 * (`onDone`, `onError`). Sites are numbered in the order met, so each effect of a machine has its
 * own slot and events.
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
    const { effect, after, ...rest } = state;
    let lowered: StateSpec = children ? { ...rest, states: children } : rest;
    if (after)
      for (const [delay, transitions] of Object.entries(after))
        lowered = withTimer(lowered, Number(delay), transitions, effectSite(sites++));
    return effect ? withEffect(lowered, effect, effectSite(sites++)) : lowered;
  };
  return Object.fromEntries(Object.entries(states).map(([name, state]) => [name, lowerState(state)]));
}

/**
 * The state with `start` run last on entry, `cancel` first on exit, and `on` added to its
 * transitions: how both effects and timers hook into a state.
 */
function hooked(
  state: StateSpec,
  start: (args: EffectActionArgs) => void,
  cancel: (args: ActionArgs) => void,
  on: Readonly<Record<string, Transitions>>,
): StateSpec {
  return {
    ...state,
    entry: [...(state.entry ?? []), start as Action],
    exit: [cancel as Action, ...(state.exit ?? [])],
    on: { ...state.on, ...on },
  };
}

/**
 * `after: { [delay]: transitions }` as a timer on the context's runner (started on entry,
 * cancelled on exit, `flow.timer.<site>` when it fires): XState's own delayed events cost a
 * scheduler entry and a copy of the system's scheduled-event table per timer.
 */
function withTimer(state: StateSpec, delayMs: number, transitions: Transitions, site: EffectSite): StateSpec {
  return hooked(
    state,
    ({ context, self }) => context.effects.startTimer(site, delayMs, context.host.clock, self),
    ({ context }) => context.effects.cancelTimer(site),
    { [site.timer]: transitions },
  );
}

function withEffect(state: StateSpec, effect: EffectSpec, site: EffectSite): StateSpec {
  // Without `onDone` nothing takes a success: not reporting it spares the machine a macrostep.
  const reportDone = effect.onDone ? (effect.doneWhen ?? (() => true)) : () => false;
  return hooked(
    state,
    (args) => args.context.effects.start(site, () => effect.run(args), args.self, reportDone),
    ({ context }) => context.effects.cancel(site),
    effect.onDone
      ? { [site.error]: effect.onError, [site.done]: effect.onDone }
      : { [site.error]: effect.onError },
  );
}
