import { fromPromise, type PromiseActorLogic } from 'xstate';
import type { CallHandle } from '../call/CallHandle.ts';
import { linkSignals } from '../call/linkSignals.ts';
import { isCallGone } from '../session/isCallGone.ts';

/** Every helper's input carries the call it acts on. */
export interface WithCall {
  readonly call: CallHandle;
}

/** A promise that settles only when `signal` aborts (the invoking state was left, or the call ended). */
function parkUntilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * Turns an async step of a call into an XState promise actor with the call's failure rules:
 * - success: the machine gets `xstate.done.actor.<id>` with the output (`onDone`);
 * - the call's channel is gone (the caller hung up): not a failure. The machine has already got
 *   `call.gone`; the actor stays quiet until its state is left or the call ends;
 * - the call ended while the step ran: nothing more happens;
 * - any other failure: `xstate.error.actor.<id>` (`onError`) carrying the error.
 * Nothing ever becomes an unhandled rejection.
 *
 * @example
 * const setLanguage = callActor(async ({ call, language }: WithCall & { language: string }) => {
 *   await call.channel.setChannelVar({ variable: 'CHANNEL(language)', value: language });
 * });
 */
export function callActor<I extends WithCall, O>(
  run: (input: I, signal: AbortSignal) => Promise<O>,
): PromiseActorLogic<O, I> {
  return fromPromise<O, I>(async ({ input, signal }) => {
    const link = linkSignals(signal, input.call.signal);
    const combined = link.signal;
    try {
      const output = await run(input, combined);
      link.dispose();
      return output;
    } catch (error) {
      if (isCallGone(error) || input.call.ended || combined.aborted) {
        // Parked until the state is left or the call ends: the link stays to hear either.
        return parkUntilAborted(combined);
      }
      link.dispose();
      throw error;
    }
  });
}
