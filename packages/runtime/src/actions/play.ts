import type { PlaybackFinished } from '@ringflow/client';
import { type PlaybackEnd, playbackEnd, stopPrompt } from '../behaviours/prompt.ts';
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
  /**
   * How the prompt ended: played to the end, stopped by a digit, skipped for a digit already
   * pressed, or `failed`: the server could not play the media (a sound that does not exist ends
   * its playback `failed`; logged as a warning).
   */
  readonly outcome: 'finished' | 'interrupted' | 'skipped' | 'failed';
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
export const play = callActor<PlayInput, PlayOutput, { readonly playbackId: string }>(
  async (input: PlayInput, signal, step): Promise<PlayOutput> => {
    const { call } = input;
    const playbackId = call.pickId('playback');
    if (input.bargeIn && call.digits.size > 0) return { playbackId, outcome: 'skipped' };
    step.started({ playbackId });
    return untilPlayed(input, playbackId, signal, (scope) => startPlayback(call, input, playbackId, scope));
  },
  {
    // Restored while the prompt played: follow that playback (its PlaybackFinished, or the
    // restored session's check of it) rather than play the prompt again.
    resume: (input, note, signal) => {
      const { playbackId } = note;
      return untilPlayed(input, playbackId, signal, async (scope) =>
        watchPlayback(input.call, playbackId, scope),
      );
    },
  },
);

/** Waits for the playback `begin` starts to end, or, with barge-in, for a digit (then stops it). */
async function untilPlayed(
  input: PlayInput,
  playbackId: string,
  signal: AbortSignal,
  begin: (scope: AbortSignal) => Promise<EventWatch<PlaybackFinished>>,
): Promise<PlayOutput> {
  const { call } = input;
  if (!input.bargeIn) {
    // No digit to race: the step's own signal is enough, no scope to build and abort.
    return ended(input, playbackId, await (await begin(signal)).promise);
  }
  // The digit waiter or the playback watch that loses the race is released with the scope.
  return withScope(signal, async (scope) => {
    const finished = await begin(scope);
    const first = await Promise.race([
      finished.promise,
      call.digits.whenDigit(scope).then(() => 'digit' as const),
    ]);
    if (first !== 'digit') return ended(input, playbackId, first);
    await stopPrompt(() => call.request('playbacks.stop', { playbackId }, { signal: scope }));
    return { playbackId, outcome: 'interrupted' };
  });
}

function ended(input: PlayInput, playbackId: string, finished: PlaybackFinished): PlayOutput {
  const end: PlaybackEnd = playbackEnd(finished, playbackId) ?? 'finished';
  if (end === 'failed')
    input.call.logger.warn(
      { playbackId, media: input.media },
      'the server could not play the media (its playback ended failed): play outcome failed',
    );
  return { playbackId, outcome: end };
}

/** Watches for the PlaybackFinished of `playbackId`, which the call owns. */
function watchPlayback(
  call: CallHandle,
  playbackId: string,
  signal: AbortSignal,
): EventWatch<PlaybackFinished> {
  return watchEvent<PlaybackFinished>(call.events$, (e) => playbackEnd(e, playbackId) !== undefined, signal);
}

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
  const finished = watchPlayback(call, playbackId, signal);
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
