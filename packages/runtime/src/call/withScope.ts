import { linkSignals } from './linkSignals.ts';

/**
 * Runs `body` with a signal that aborts when `parent` aborts or when `body` settles, so every
 * waiter and subscription `body` started on that signal is released when it returns or throws.
 *
 * @example
 * await withScope(signal, async (scope) => { const a = nextEvent(call.events$, isA, scope); ... });
 */
export async function withScope<T>(
  parent: AbortSignal,
  body: (scope: AbortSignal) => Promise<T>,
): Promise<T> {
  const scope = linkSignals(parent);
  try {
    return await body(scope.signal);
  } finally {
    scope.abort();
  }
}
