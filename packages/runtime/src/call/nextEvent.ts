import { ErrorCode, RingflowError, type StreamEvent } from '@ringflow/client';
import type { Observable } from 'rxjs';

/**
 * Resolves with the first event of `events$` that matches, subscribing at once: call it before
 * sending the request whose events you expect ("stage, then execute"). Rejects when `signal`
 * aborts or the stream completes (the call ended); the subscription is released either way.
 * The returned promise is marked handled, so leaving it unawaited after a failed request is safe.
 *
 * @example
 * const finished = nextEvent(call.events$, (e) => e.type === 'PlaybackFinished' && e.playback.id === id, signal);
 * await call.channel.playWithId({ playbackId: id, media: 'sound:hello' });
 * await finished;
 */
export function nextEvent<E extends StreamEvent>(
  events$: Observable<StreamEvent>,
  matches: ((event: StreamEvent) => event is E) | ((event: StreamEvent) => boolean),
  signal: AbortSignal,
): Promise<E> {
  const promise = new Promise<E>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    let settled = false;
    const onAbort = () => finish(() => reject(signal.reason));
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      queueMicrotask(() => subscription.unsubscribe());
      settle();
    };
    const subscription = events$.subscribe({
      next: (event) => {
        if (matches(event)) finish(() => resolve(event as E));
      },
      complete: () =>
        finish(() =>
          reject(new RingflowError(ErrorCode.CLOSED, 'the call ended before the awaited event arrived')),
        ),
    });
    if (settled) subscription.unsubscribe();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return promise;
}
