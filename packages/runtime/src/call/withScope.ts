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
  const controller = new AbortController();
  const scope = AbortSignal.any([parent, controller.signal]);
  try {
    return await body(scope);
  } finally {
    controller.abort();
  }
}
