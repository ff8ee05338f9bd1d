import type { ResumeRule } from '@ringflow/runtime/engine';
import { assign } from 'xstate';
import { isEventType } from '@ringflow/client/interface';
import {
  type ActionArgs,
  type AnyFlowEvent,
  describeFailure,
  type FlowContext,
  scopeOf,
} from './FlowContext.ts';
import type { Action, EffectSpec, Transitions } from './StateSpec.ts';

/**
 * An effect (usually one REST call) the state runs when entered: `onDone` gets `event.output`,
 * `onError` gets `event.error`; nothing is ever thrown out of the machine. Leaving the state
 * first drops the result. The compiler lowers it to actions and events (see `lowerEffects`).
 *
 * @example
 * effect: effect(({ context }) => context.host.ari.channels.answer({ channelId: context.call.channelId }), {
 *   onDone: build.exit('done'), onError: build.exit('failed', failureData) })
 */
export function effect(
  run: (args: ActionArgs) => Promise<unknown>,
  handlers: {
    onDone?: Transitions;
    onError: Transitions;
    doneWhen?: (output: unknown) => boolean;
    /** What a restored call does if the effect was under way (default `repeat`; see `ResumeRule`). */
    resume?: ResumeRule;
  },
): EffectSpec {
  return {
    run,
    ...(handlers.resume ? { resume: handlers.resume } : {}),
    ...(handlers.onDone ? { onDone: handlers.onDone } : {}),
    ...(handlers.onDone && handlers.doneWhen ? { doneWhen: handlers.doneWhen } : {}),
    onError: handlers.onError,
  };
}

/**
 * Result data of a failed effect: `{ message, status?, ... }` from the error event, or from the
 * server event that reported the failure (a playback that could not play its media).
 */
export function failureData({ event }: ActionArgs): Record<string, unknown> {
  if ('error' in event) return { ...describeFailure(event.error) };
  const playback = isEventType(event, 'PlaybackFinished') ? event.playback : undefined;
  if (playback?.state === 'failed') {
    const language =
      typeof playback.language === 'string' && playback.language ? ` (language ${playback.language})` : '';
    return {
      message: `the server could not play ${String(playback.media_uri)}${language}: it has no such sound or recording`,
      cause: 'refused',
    };
  }
  return { message: `${event.type} reported a failure`, cause: 'other' };
}

// The three assigners below are XState's `assign`, whose type carries a machine's full type
// parameters; the engine's `Action` is the plain function type states are written with, so each
// is cast once here (XState runs the object as is).

/** Merges into the running step's scratch space. */
export function setStep(patch: (args: ActionArgs) => Record<string, unknown>): Action {
  return assign((args: ActionArgs) => ({
    step: { ...args.context.step, ...patch(args) },
  })) as unknown as Action;
}

/** Assigns flow variables. */
export function setVars(patch: (args: ActionArgs) => Record<string, unknown>): Action {
  return assign((args: ActionArgs) => ({
    vars: { ...args.context.vars, ...patch(args) },
  })) as unknown as Action;
}

/** Assigns any context fields. */
export function setContext(patch: (args: ActionArgs) => Partial<FlowContext>): Action {
  return assign((args: ActionArgs) => patch(args)) as unknown as Action;
}

/** Starts an effect without waiting for it (stopping a playback on barge-in); failures are only logged. */
export function fireAndForget(run: (args: ActionArgs) => Promise<unknown>, what: string): Action {
  return (args: ActionArgs) => {
    Promise.resolve()
      .then(() => run(args))
      .catch((e: unknown) =>
        args.context.host.log?.warn({ what, ...describeFailure(e) }, 'background flow action failed'),
      );
  };
}

/** The scope of expressions evaluated inside a step (`event` is the event being handled). */
export function stepScope({ context, event }: ActionArgs) {
  return scopeOf(context, event);
}

/** The id of the channel an event is about (`event.channel.id`), read by narrowing. */
export function channelIdOf(event: AnyFlowEvent): string | undefined {
  const { channel } = event;
  return typeof channel === 'object' && channel !== null && 'id' in channel && typeof channel.id === 'string'
    ? channel.id
    : undefined;
}

/** Guard: the event concerns this call's channel. */
export function isOwnChannel({ context, event }: ActionArgs): boolean {
  return channelIdOf(event) === context.call.channelId;
}
