import { isResourceGone, type PlaybackFinished } from '@ringflow/client';
import type { CallHandle } from '../call/CallHandle.ts';
import { type EventWatch, watchEvent } from '../call/nextEvent.ts';
import { withScope } from '../call/withScope.ts';
import { callActor, type WithCall } from './callActor.ts';

/** Input of {@link play}. */
export interface PlayInput extends WithCall {
  /** One media URI or several played in turn: `sound:hello-world`, `tone:ring;tonezone=us`, `digits:123`. */
  readonly media: string | readonly string[];
  /**
   * A DTMF digit stops the prompt (the digit stays in the call's type-ahead buffer for the next
   * `collectDigits`). When a digit is already waiting, the prompt is skipped. Default false.
   */
  readonly bargeIn?: boolean;
  readonly lang?: string;
}

/** Output of {@link play}. */
export interface PlayOutput {
  readonly playbackId: string;
  /** How the prompt ended: played to the end, stopped by a digit, or skipped for a digit already pressed. */
  readonly outcome: 'finished' | 'interrupted' | 'skipped';
}

/**
 * Plays media to the call and finishes when the playback does: a PlaybackFinished for a playback
 * id picked and owned before the request, so the event cannot be missed. With `bargeIn`, a digit
 * stops the playback.
 *
 * @example
 * greeting: {
 *   invoke: {
 *     src: 'play',
 *     input: ({ context }) => ({ call: context.call, media: 'sound:welcome', bargeIn: true }),
 *     onDone: 'menu',
 *   },
 * }
 */
export const play = callActor(async (input: PlayInput, signal): Promise<PlayOutput> => {
  const { call } = input;
  const playbackId = call.pickId('playback');
  if (!input.bargeIn) {
    // No digit to race: the step's own signal is enough, no scope to build and abort.
    await (await startPlayback(call, input, playbackId, signal)).promise;
    return { playbackId, outcome: 'finished' };
  }
  if (call.digits.size > 0) return { playbackId, outcome: 'skipped' };
  // The digit waiter or the playback watch that loses the race is released with the scope.
  return withScope(signal, async (scope) => {
    const finished = await startPlayback(call, input, playbackId, scope);
    const first = await Promise.race([
      finished.promise.then(() => 'finished' as const),
      call.digits.whenDigit(scope).then(() => 'digit' as const),
    ]);
    if (first === 'finished') return { playbackId, outcome: 'finished' };
    try {
      await call.request('playbacks.stop', { playbackId }, { signal: scope });
    } catch (error) {
      // The playback ended on its own while the stop was on its way: same outcome.
      if (!isResourceGone(error)) throw error;
    }
    return { playbackId, outcome: 'interrupted' };
  });
});

/**
 * Owns the playback id, starts watching for its PlaybackFinished, then asks for the playback
 * ("stage, then execute"); a refused request releases both.
 */
async function startPlayback(
  call: CallHandle,
  input: PlayInput,
  playbackId: string,
  signal: AbortSignal,
): Promise<EventWatch<PlaybackFinished>> {
  call.own('playback', playbackId, { cleanup: false });
  const finished = watchEvent<PlaybackFinished>(
    call.events$,
    (e) => e.type === 'PlaybackFinished' && (e as PlaybackFinished).playback?.id === playbackId,
    signal,
  );
  const media = typeof input.media === 'string' ? input.media : [...input.media];
  try {
    await call.channel.playWithId(
      { playbackId, media, ...(input.lang ? { lang: input.lang } : {}) },
      { signal },
    );
  } catch (error) {
    finished.cancel(error);
    call.disown('playback', playbackId);
    throw error;
  }
  return finished;
}
