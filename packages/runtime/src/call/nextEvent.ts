import { ErrorCode, RingflowError, type StreamEvent } from '@ringflow/client';
import type { Observable } from 'rxjs';

/** A pending {@link watchEvent}: its promise, and a way to stop waiting without any signal. */
export interface EventWatch<E extends StreamEvent> {
  readonly promise: Promise<E>;
  /** Stops waiting: the subscription is released and the promise rejects with `reason`. */
  cancel(reason: unknown): void;
}

/**
 * Like {@link nextEvent}, and also cancellable directly: a step that owns its wait can release it
 * without building an AbortController just for that (one per step showed in load profiles).
 *
 * @example
 * const finished = watchEvent(call.events$, isMine, signal);
 * try { await call.channel.playWithId(...); } catch (e) { finished.cancel(e); throw e; }
 * await finished.promise;
 */
export function watchEvent<E extends StreamEvent>(
  events$: Observable<StreamEvent>,
  matches: ((event: StreamEvent) => event is E) | ((event: StreamEvent) => boolean),
  signal: AbortSignal,
): EventWatch<E> {
  let cancel: (reason: unknown) => void = () => undefined;
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
    cancel = (reason) => finish(() => reject(reason));
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
  return { promise, cancel: (reason) => cancel(reason) };
}

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
  return watchEvent(events$, matches, signal).promise;
}
