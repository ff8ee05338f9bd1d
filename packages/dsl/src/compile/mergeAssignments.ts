import type { ActionArgs, FlowContext } from './FlowContext.ts';
import { assignPatch, type ContextPatch, patchOf } from './effects.ts';
import type { Action, InvokeSpec, StateSpec, TransitionSpec, Transitions } from './StateSpec.ts';

/**
 * Assignments that follow each other in one list of actions (a transition's, a state's entry or
 * exit) made into one: each of XState's `assign` builds a whole new machine snapshot (its state
 * value worked out again from the active state nodes, a Set of tags, a copy of the context), so a
 * step's outcome that records its result and then sets a flow variable, or a final state's
 * output and status, cost two. The merged assignment applies the patches in their order, each
 * one seeing the context the ones before it made, as XState applies consecutive assignments:
 * the context after it is the same. Assignments with anything else between them are left apart
 * (an action between two assignments sees the context of the first).
 *
 * @example
 * const states = mergeAssignments(lowerEffects(compiled).states);
 */
export function mergeAssignments(states: Readonly<Record<string, StateSpec>>): Record<string, StateSpec> {
  return Object.fromEntries(Object.entries(states).map(([name, state]) => [name, mergeInState(state)]));
}

/** {@link mergeAssignments} in one state (its actions, transitions and child states). */
export function mergeInState(state: StateSpec): StateSpec {
  const merged: { -readonly [K in keyof StateSpec]: StateSpec[K] } = { ...state };
  if (state.entry) merged.entry = mergeActions(state.entry);
  if (state.exit) merged.exit = mergeActions(state.exit);
  if (state.on)
    merged.on = Object.fromEntries(
      Object.entries(state.on).map(([type, t]) => [type, mergeInTransitions(t)]),
    );
  if (state.always) merged.always = mergeInTransitions(state.always);
  if (state.after)
    merged.after = Object.fromEntries(
      Object.entries(state.after).map(([delay, t]) => [delay, mergeInTransitions(t)]),
    );
  if (state.invoke)
    merged.invoke = Array.isArray(state.invoke)
      ? (state.invoke as readonly InvokeSpec[]).map(mergeInInvoke)
      : mergeInInvoke(state.invoke as InvokeSpec);
  if (state.states) merged.states = mergeAssignments(state.states);
  return merged;
}

function mergeInInvoke(invoke: InvokeSpec): InvokeSpec {
  return {
    ...invoke,
    ...(invoke.onDone ? { onDone: mergeInTransitions(invoke.onDone) } : {}),
    ...(invoke.onError ? { onError: mergeInTransitions(invoke.onError) } : {}),
  };
}

function mergeInTransitions(transitions: Transitions): Transitions {
  const one = (t: TransitionSpec): TransitionSpec =>
    t.actions ? { ...t, actions: mergeActions(t.actions) } : t;
  return Array.isArray(transitions)
    ? (transitions as readonly TransitionSpec[]).map(one)
    : one(transitions as TransitionSpec);
}

/** The list with each run of two or more assignments in a row made into one. */
export function mergeActions(actions: readonly Action[]): readonly Action[] {
  const out: Action[] = [];
  let run: ContextPatch[] = [];
  let runActions: Action[] = [];
  const flush = (): void => {
    if (run.length > 1) out.push(assignPatch(sequence(run)));
    else out.push(...runActions);
    run = [];
    runActions = [];
  };
  for (const action of actions) {
    const patch = patchOf(action);
    if (patch) {
      run.push(patch);
      runActions.push(action);
      continue;
    }
    flush();
    out.push(action);
  }
  flush();
  return out.length === actions.length ? actions : out;
}

/** One patch doing `patches` in order, each on the context the previous ones made. */
function sequence(patches: readonly ContextPatch[]): ContextPatch {
  return (args: ActionArgs) => {
    let context: FlowContext = args.context;
    const changed: Partial<FlowContext> = {};
    for (const patch of patches) {
      const partial = patch(context === args.context ? args : { ...args, context });
      context = { ...context, ...partial };
      Object.assign(changed, partial);
    }
    return changed;
  };
}
