import { type EffectSite, effectSite } from './EffectRunner.ts';
import type { Action, EffectSpec, EngineArgs, StateSpec, Transitions } from './MachineSpec.ts';

/**
 * The event a restored call machine gets once it runs again: its engine takes up the effects
 * and timers that were under way when its snapshot was written (see {@link lowerEffects}).
 */
export const RESUMED_EVENT = 'ringflow.resumed';

/** States ready for XState, and the action that resumes their engine in a restored machine. */
export interface LoweredStates<A extends EngineArgs> {
  readonly states: Record<string, StateSpec<A>>;
  /**
   * The action for the machine's root `on: { 'ringflow.resumed': ... }`: takes up the effects
   * and timers the restored runner says were under way (each effect by its resume rule), and
   * passes the event on to the machine's children (subflows have engines of their own).
   */
  readonly resume: Action<A>;
}

/**
 * Rewrites every state's `effect` (and `after` timers, see {@link withTimer}) into what XState
 * runs: an entry action that starts it on the context's {@link EffectRunner}, an exit action that
 * drops its result if the state is left first, and `on` transitions for its done and error events
 * (`onDone`, `onError`). Sites are numbered in the order met, so each effect of a machine has its
 * own slot and events.
 *
 * @example
 * const { states, resume } = lowerEffects(compiledStates); // no `effect` left
 * createMachine({ ..., states, on: { [RESUMED_EVENT]: { actions: resume } } });
 */
export function lowerEffects<A extends EngineArgs>(
  states: Readonly<Record<string, StateSpec<A>>>,
): LoweredStates<A> {
  const effects: { site: EffectSite; spec: EffectSpec<A> }[] = [];
  const timers: EffectSite[] = [];
  /** States' own resume actions, each with the tag its state carries. */
  const resumers: { tag: string; actions: readonly ((args: A) => void)[] }[] = [];
  let sites = 0;
  const lowerState = (state: StateSpec<A>): StateSpec<A> => {
    const children = state.states
      ? Object.fromEntries(Object.entries(state.states).map(([name, child]) => [name, lowerState(child)]))
      : undefined;
    const { effect, after, onResume, ...rest } = state;
    let lowered: StateSpec<A> = children ? { ...rest, states: children } : rest;
    if (onResume && onResume.length > 0) {
      const tag = `ringflow.resume.${resumers.length}`;
      resumers.push({ tag, actions: onResume });
      lowered = { ...lowered, tags: [...(lowered.tags ?? []), tag] };
    }
    if (after)
      for (const [delay, transitions] of Object.entries(after)) {
        const site = effectSite(sites++);
        timers[site.slot] = site;
        lowered = withTimer(lowered, Number(delay), transitions, site);
      }
    if (!effect) return lowered;
    const site = effectSite(sites++);
    effects[site.slot] = { site, spec: effect };
    return withEffect(lowered, effect, site);
  };
  const lowered = Object.fromEntries(
    Object.entries(states).map(([name, state]) => [name, lowerState(state)]),
  );
  const resume = (args: A): void => {
    const { context, self } = args;
    context.effects.resume(
      {
        effect: (slot) => {
          const known = effects[slot];
          if (!known) return;
          if (known.spec.resume === 'await') context.effects.awaitEvents(known.site);
          else startEffect(args, known.spec, known.site);
        },
        timer: (slot) => timers[slot] ?? effectSite(slot),
      },
      self,
    );
    // `self` is typed as any actor (EngineArgs), whose snapshot type says nothing of a machine's
    // children and tags; every machine this engine lowers has both (read optionally all the same).
    const snapshot = self.getSnapshot() as {
      children?: Record<string, EngineArgs['self'] | undefined>;
      hasTag?: (tag: string) => boolean;
    };
    for (const { tag, actions } of resumers)
      if (snapshot.hasTag?.(tag)) for (const action of actions) action(args);
    const children = snapshot.children;
    for (const child of Object.values(children ?? {})) child?.send(args.event);
  };
  return { states: lowered, resume };
}

/**
 * The state with `start` run last on entry, `cancel` first on exit, and `on` added to its
 * transitions: how both effects and timers hook into a state.
 */
function hooked<A extends EngineArgs>(
  state: StateSpec<A>,
  start: (args: A) => void,
  cancel: (args: A) => void,
  on: Readonly<Record<string, Transitions<A>>>,
): StateSpec<A> {
  return {
    ...state,
    entry: [...(state.entry ?? []), start],
    exit: [cancel, ...(state.exit ?? [])],
    on: { ...state.on, ...on },
  };
}

/**
 * `after: { [delay]: transitions }` as a timer on the context's runner (started on entry,
 * cancelled on exit, `flow.timer.<site>` when it fires): XState's own delayed events cost a
 * scheduler entry and a copy of the system's scheduled-event table per timer, and are not
 * written in a snapshot as time left.
 */
function withTimer<A extends EngineArgs>(
  state: StateSpec<A>,
  delayMs: number,
  transitions: Transitions<A>,
  site: EffectSite,
): StateSpec<A> {
  return hooked(
    state,
    ({ context, self }) => context.effects.startTimer(site, delayMs, self),
    ({ context }) => context.effects.cancelTimer(site),
    { [site.timer]: transitions },
  );
}

function startEffect<A extends EngineArgs>(args: A, effect: EffectSpec<A>, site: EffectSite): void {
  // Without `onDone` nothing takes a success: not reporting it spares the machine a macrostep.
  const reportDone = effect.onDone ? (effect.doneWhen ?? (() => true)) : () => false;
  args.context.effects.start(site, () => effect.run(args), args.self, reportDone);
}

function withEffect<A extends EngineArgs>(
  state: StateSpec<A>,
  effect: EffectSpec<A>,
  site: EffectSite,
): StateSpec<A> {
  return hooked(
    state,
    (args) => startEffect(args, effect, site),
    ({ context }) => context.effects.cancel(site),
    effect.onDone
      ? { [site.error]: effect.onError, [site.done]: effect.onDone }
      : { [site.error]: effect.onError },
  );
}
