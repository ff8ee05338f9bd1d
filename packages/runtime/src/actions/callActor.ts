import { isCallGone } from '@ringflow/client';
import { ErrorCode, RingflowError } from '@ringflow/client';
import { fromPromise, type PromiseActorLogic } from 'xstate';
import type { CallHandle } from '../call/CallHandle.ts';
import { callOfSystem } from '../call/callOfSystem.ts';
import { markCallScoped } from '../call/callScopedSignal.ts';

/** Every helper's input carries the call it acts on. */
export interface WithCall {
  readonly call: CallHandle;
}

/**
 * What a machine gives a call actor when it invokes it: its input, where `call` may be left out
 * (the actor then acts on the call whose machine invoked it).
 *
 * @example invoke: { src: 'play', input: { media: 'sound:hello-world' }, onDone: 'menu' }
 */
export type CallActorInput<I extends WithCall> = Omit<I, 'call'> & { readonly call?: CallHandle };

/** The input an invoke gives: none at all when nothing in it is required (`{ src: 'answer' }`). */
type InvokeInput<I extends WithCall> =
  object extends CallActorInput<I> ? CallActorInput<I> | undefined : CallActorInput<I>;

/**
 * A promise that settles only when the step's `signal` aborts (its state was left, or the call
 * ended and its machine was stopped) or, for a host that ends a call without stopping its machine,
 * when the call's own signal aborts.
 */
function parkUntilAborted(signal: AbortSignal, callSignal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    if (callSignal.aborted) return reject(callSignal.reason);
    const onAbort = () => {
      signal.removeEventListener('abort', onAbort);
      callSignal.removeEventListener('abort', onAbort);
      reject(signal.aborted ? signal.reason : callSignal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    callSignal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What a call actor's step can tell its session while it runs; `N` is its resume note. */
export interface CallStep<N = unknown> {
  /**
   * The step started something on the server that reports back (a playback, a recording, a
   * dialled channel): `note` (plain data, e.g. its id) goes into the call's record, so that if
   * the call is restored in a new process while the step is under way, the restarted actor gets
   * it in `resume` instead of running again. Call it before sending the request, with the id
   * picked for it. The note is dropped when the actor settles or is stopped.
   */
  started(note: N): void;
}

/** How a call actor behaves in a call restored in a new process; `N` is its resume note. */
export interface CallActorOptions<I extends WithCall, O, N = unknown> {
  /**
   * Run instead of the step when the actor is restarted by a restore after the step had noted
   * something `started`: await what it started (its events, or the restored session's check of
   * it) instead of starting it again. Without it (or without a note) the step runs again, which
   * is right for requests that change nothing when repeated (answer, set a variable).
   */
  readonly resume?: (input: I, note: N, signal: AbortSignal, step: CallStep<N>) => Promise<O>;
}

/**
 * Turns an async step of a call into an XState promise actor with the call's failure rules. Its
 * input's `call` may be left out: the actor acts on the call whose machine invoked it.
 *
 * - success: the machine gets `xstate.done.actor.<id>` with the output (`onDone`);
 * - the call's channel is gone (the caller hung up): not a failure. The machine has already got
 *   `call.gone`; the actor stays quiet until its state is left or the call ends;
 * - the call ended while the step ran: nothing more happens;
 * - any other failure: `xstate.error.actor.<id>` (`onError`) carrying the error.
 * Nothing ever becomes an unhandled rejection.
 *
 * `run` gets the step's own signal, which aborts when the invoking state is left. It also aborts
 * when the call ends: the session stops the call's machine first, and stopping a machine stops
 * every step it runs. Requests sent through the call are cancelled by the session itself when the
 * call ends. So no signal is combined per step: building one (`AbortSignal.any`, or a linked
 * controller) for every step of every call was a visible share of the runtime's CPU per call.
 *
 * @example
 * const setLanguage = callActor(async ({ call, language }: WithCall & { language: string }) => {
 *   await call.channel.setChannelVar({ variable: 'CHANNEL(language)', value: language });
 * });
 */
export function callActor<I extends WithCall, O, N = unknown>(
  run: (input: I, signal: AbortSignal, step: CallStep<N>) => Promise<O>,
  options: CallActorOptions<I, O, N> = {},
): PromiseActorLogic<O, InvokeInput<I>> {
  return fromPromise<O, InvokeInput<I>>(async ({ input: given, signal, system, self }) => {
    const call = given?.call ?? callOfSystem(system);
    if (!call)
      throw new RingflowError(
        ErrorCode.CONFIG,
        'a call actor was invoked without `call` in its input, outside a machine the runtime runs for a call: give `call` in the input.',
      );
    const input = (given?.call ? given : { ...given, call }) as I;
    if (call.signal.aborted) return parkUntilAborted(signal, call.signal);
    // Stopping the call's machine (which the session does when the call ends) aborts this signal.
    markCallScoped(signal, call);
    // Taken at once (before any await): a note here means a restore restarted this actor.
    // The note is what this actor's own run gave `started` (as N), kept in the call's record: a
    // record is plain JSON, so its type is this actor's word, not checked again here.
    const note = options.resume ? (call.resumeNotes.take(self.id) as N | undefined) : undefined;
    let noted = false;
    const step: CallStep<N> = {
      started: (what) => {
        noted = true;
        call.resumeNotes.note(self.id, what);
      },
    };
    try {
      if (note === undefined || !options.resume) return await run(input, signal, step);
      // Still under way: noted again, so a second restore follows it too.
      step.started(note);
      return await options.resume(input, note, signal, step);
    } catch (error) {
      if (isCallGone(error) || call.ended || signal.aborted || call.signal.aborted) {
        // Parked until the state is left or the call ends.
        return parkUntilAborted(signal, call.signal);
      }
      throw error;
    } finally {
      if (noted) call.resumeNotes.forget(self.id);
    }
  });
}
