import type { EffectRunner, EffectTarget } from './EffectRunner.ts';

/**
 * What every action of an engine-driven machine gets (XState's action arguments, narrowed to
 * what the engine uses): the context holds the machine's {@link EffectRunner}.
 */
export interface EngineArgs {
  readonly context: { readonly effects: EffectRunner };
  readonly event: { readonly type: string };
  readonly self: EffectTarget;
}

/**
 * The subset of XState's state configuration that machines built on the engine are written in
 * (compiled flows, and call machines written by hand with `effect`). Kept as small types of
 * our own, generic over the action arguments, so generated configuration is easy to read and to
 * assert in tests; XState takes it as is once {@link lowerEffects} has turned `effect` into
 * actions.
 */
export type Action<A> = ((args: A) => void) | { readonly type: string; readonly [key: string]: unknown };

export interface TransitionSpec<A> {
  readonly target?: string;
  readonly guard?: (args: A) => boolean;
  readonly actions?: readonly Action<A>[];
  readonly reenter?: boolean;
  readonly description?: string;
}

export type Transitions<A> = TransitionSpec<A> | readonly TransitionSpec<A>[];

export interface InvokeSpec<A> {
  readonly id?: string;
  readonly src: unknown;
  readonly input?: (args: A) => unknown;
  readonly onDone?: Transitions<A>;
  readonly onError?: Transitions<A>;
}

/**
 * What the engine does with an effect that was running when the call's snapshot was written,
 * once the call is restored in a new process:
 * - `repeat` (default): run it again. For requests that change nothing when repeated (answer,
 *   set a variable, hang up) or whose repetition is harmless;
 * - `await`: do not send it again; its outcome comes as events (a playback's PlaybackFinished,
 *   a dialled channel's StasisStart). The restored session checks the resources it owns on the
 *   server and tells the machine what it missed. For requests that create something with an id
 *   picked beforehand (play, record, originate): repeating them would play a prompt twice or
 *   place a second call.
 */
export type ResumeRule = 'repeat' | 'await';

/** An effect run on entering a state (see `effect` and {@link lowerEffects}). */
export interface EffectSpec<A> {
  readonly run: (args: A) => Promise<unknown>;
  readonly onDone?: Transitions<A>;
  /** Report success only for these results (`onDone` is taken for nothing else); default: all. */
  readonly doneWhen?: (output: unknown) => boolean;
  readonly onError: Transitions<A>;
  /** What a restored call does if this effect was running when its snapshot was written. */
  readonly resume?: ResumeRule;
}

export interface StateSpec<A> {
  readonly id?: string;
  readonly type?: 'final' | 'compound' | 'atomic' | 'parallel';
  readonly initial?: string;
  readonly states?: Readonly<Record<string, StateSpec<A>>>;
  readonly on?: Readonly<Record<string, Transitions<A>>>;
  readonly always?: Transitions<A>;
  readonly after?: Readonly<Record<number, Transitions<A>>>;
  readonly entry?: readonly Action<A>[];
  readonly exit?: readonly Action<A>[];
  readonly invoke?: InvokeSpec<A> | readonly InvokeSpec<A>[];
  /** One effect (REST call, webhook) started on entry; lowered by `lowerEffects` before XState sees it. */
  readonly effect?: EffectSpec<A>;
  /**
   * Run when a restored machine resumes (`ringflow.resumed`) while this state is active, after
   * its effects and timers are taken up: for what lives outside the machine and must be told
   * again in the new process (a caller rejoining its call queue). Lowered into a tag.
   */
  readonly onResume?: readonly ((args: A) => void)[];
  readonly tags?: readonly string[];
  readonly output?: (args: A) => unknown;
  readonly description?: string;
}
