import { ErrorCode, RingflowError } from '@ringflow/client';
import { callScopeOf, markCallScoped } from './callScopedSignal.ts';

/** A signal made of others, with its own abort and a way to let go of its sources. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Aborts the linked signal (default reason: {@link SCOPE_ENDED}) and lets go of the sources. */
  abort(reason?: unknown): void;
  /** Lets go of the sources without aborting (the work finished; nobody waits on the signal any more). */
  dispose(): void;
}

/**
 * The reason a scope's signal aborts when its work is over. One shared error: nobody sees it (the
 * work already settled), and building an error per scope (a DOMException, with its stack) showed
 * up in load profiles.
 */
export const SCOPE_ENDED: RingflowError = new RingflowError(
  ErrorCode.ABORTED,
  'the step that was waiting has finished',
);

/**
 * A signal that aborts when any of `sources` aborts, with that source's reason, like
 * `AbortSignal.any`, but released explicitly: `dispose()` or `abort()` remove its listeners from
 * the sources at once. Node's `AbortSignal.any` keeps weak references to every source and cleans
 * them up through the garbage collector, which cost a large share of the CPU in the runtime's
 * load profile (one combined signal per request and per step of every call).
 *
 * @example
 * const link = linkSignals(callSignal, stepSignal);
 * try { await work(link.signal); } finally { link.dispose(); }
 */
export function linkSignals(...sources: AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const listening: [AbortSignal, () => void][] = [];
  const dispose = () => {
    for (const [source, listener] of listening) source.removeEventListener('abort', listener);
    listening.length = 0;
  };
  const abort = (reason: unknown = SCOPE_ENDED) => {
    dispose();
    if (!controller.signal.aborted) controller.abort(reason);
  };
  for (const source of sources) {
    if (source.aborted) {
      abort(source.reason);
      break;
    }
    const listener = () => abort(source.reason);
    source.addEventListener('abort', listener, { once: true });
    listening.push([source, listener]);
  }
  // Aborted by any source: scoped to a call if one of them is.
  for (const source of sources) {
    const call = callScopeOf(source);
    if (call) {
      markCallScoped(controller.signal, call);
      break;
    }
  }
  return { signal: controller.signal, abort, dispose };
}
