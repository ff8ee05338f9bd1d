import type { ActionArgs } from './FlowContext.ts';

/**
 * The subset of XState's state configuration the compiler writes. Kept as our own small types so
 * generated configuration is easy to read and assert in tests; `compileFlow` hands it to XState.
 */
export type Action =
  | ((args: ActionArgs) => void)
  | { readonly type: string; readonly [key: string]: unknown };

export interface TransitionSpec {
  readonly target?: string;
  readonly guard?: (args: ActionArgs) => boolean;
  readonly actions?: readonly Action[];
  readonly reenter?: boolean;
  readonly description?: string;
}

export type Transitions = TransitionSpec | readonly TransitionSpec[];

export interface InvokeSpec {
  readonly id?: string;
  readonly src: unknown;
  readonly input?: (args: ActionArgs) => unknown;
  readonly onDone?: Transitions;
  readonly onError?: Transitions;
}

/** An effect run on entering a state (see `effect` and `lowerEffects`). */
export interface EffectSpec {
  readonly run: (args: ActionArgs) => Promise<unknown>;
  readonly onDone?: Transitions;
  /** Report success only for these results (`onDone` is taken for nothing else); default: all. */
  readonly doneWhen?: (output: unknown) => boolean;
  readonly onError: Transitions;
}

export interface StateSpec {
  readonly id?: string;
  readonly type?: 'final' | 'compound' | 'atomic';
  readonly initial?: string;
  readonly states?: Readonly<Record<string, StateSpec>>;
  readonly on?: Readonly<Record<string, Transitions>>;
  readonly always?: Transitions;
  readonly after?: Readonly<Record<number, Transitions>>;
  readonly entry?: readonly Action[];
  readonly exit?: readonly Action[];
  readonly invoke?: InvokeSpec | readonly InvokeSpec[];
  /** One effect (REST call, webhook) started on entry; lowered by `lowerEffects` before XState sees it. */
  readonly effect?: EffectSpec;
  readonly output?: (args: ActionArgs) => unknown;
  readonly description?: string;
}

/** Adds actions before a transition's own actions. */
export function withActions(transition: TransitionSpec, before: readonly Action[]): TransitionSpec {
  return { ...transition, actions: [...before, ...(transition.actions ?? [])] };
}

/** Adds a guard to a transition (both must hold). */
export function withGuard(transition: TransitionSpec, guard: (args: ActionArgs) => boolean): TransitionSpec {
  const own = transition.guard;
  return { ...transition, guard: own ? (a) => guard(a) && own(a) : guard };
}
