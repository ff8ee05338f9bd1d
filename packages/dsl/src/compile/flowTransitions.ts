import { flowEvents, USER_EVENT_PREFIX } from '../model/flowEvents.ts';
import { type FlowTransitions, transitionList } from '../model/transition.ts';
import { isOwnChannel, setVars } from './effects.ts';
import { type ActionArgs, resolveValue, safeCondition, scopeOf } from './FlowContext.ts';
import type { Action, TransitionSpec } from './StateSpec.ts';

/** Root id of every compiled machine: flow states are `#flow.<name>`. */
export const ROOT = 'flow';
/** Where a flow goes to end: it hangs the call up there unless it is already gone. */
export const FINISH = `#${ROOT}.$finish`;
/** The final state. */
export const END = `#${ROOT}.$end`;

/** The id of a flow state. */
export function stateTarget(name: string): string {
  return `#${ROOT}.${name}`;
}

/** What `event` means for a transition's conditions: the server event, or the step result. */
export type EventOf = (a: ActionArgs) => unknown;
export const serverEvent: EventOf = (a) => a.event;
export const stepResult: EventOf = (a) => a.context.result;

/** Both guards must hold (the second is optional). */
export function combine(
  a: (args: ActionArgs) => boolean,
  b: ((args: ActionArgs) => boolean) | undefined,
): (args: ActionArgs) => boolean {
  return b ? (args) => a(args) && b(args) : a;
}

/** Assigns each `set` entry in order (later entries see earlier ones); a failing expression is logged and skipped. */
function assignments(set: Record<string, unknown> | undefined, eventOf: EventOf): Action[] {
  if (!set || Object.keys(set).length === 0) return [];
  return [
    setVars((args) => {
      let vars = { ...args.context.vars };
      for (const [name, value] of Object.entries(set)) {
        try {
          vars = { ...vars, [name]: resolveValue(value, scopeOf({ ...args.context, vars }, eventOf(args))) };
        } catch (e) {
          args.context.host.log?.warn(
            { variable: name, error: (e as Error).message },
            'flow assignment failed; variable unchanged',
          );
        }
      }
      return vars;
    }),
  ];
}

/**
 * Compiles flow transitions into XState transitions. `eventOf` says what `event` means for their
 * conditions (the server event, or the step result). Without a `goto`, the transition stays put
 * (or, with `fallthrough`, goes on to it).
 */
export function compileTransitions(
  value: FlowTransitions | undefined,
  eventOf: EventOf,
  fallthrough?: string,
): TransitionSpec[] {
  return transitionList(value).map((t) => {
    const target = t.goto !== undefined ? stateTarget(t.goto) : fallthrough;
    const condition = t.if;
    return {
      ...(target ? { target } : {}),
      ...(t.goto !== undefined ? { reenter: true } : {}),
      ...(condition !== undefined
        ? { guard: (a: ActionArgs) => safeCondition(condition, a.context, eventOf(a)) }
        : {}),
      actions: assignments(t.set, eventOf),
    };
  });
}

/** The server events behind an `on` key, and whether they must be about this call's channel. */
export function eventBinding(name: string): { types: string[]; guard?: (a: ActionArgs) => boolean } {
  if (name.startsWith(USER_EVENT_PREFIX)) {
    const wanted = name.slice(USER_EVENT_PREFIX.length);
    return { types: ['ChannelUserevent'], guard: ({ event }) => event.eventname === wanted };
  }
  const alias = (flowEvents as Record<string, { ari: readonly string[]; own: boolean }>)[name];
  if (!alias) return { types: [name] };
  const own = isOwnChannel;
  return alias.own ? { types: [...alias.ari], guard: own } : { types: [...alias.ari] };
}
