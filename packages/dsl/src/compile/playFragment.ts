import { playbackEnd, stopPrompt } from '@ringflow/runtime/engine';
import type { ActionArgs } from './FlowContext.ts';
import { effect, fireAndForget, isOwnChannel, setStep } from './effects.ts';
import type { StateSpec, TransitionSpec } from './StateSpec.ts';
import { withActions, withGuard } from './StateSpec.ts';

export interface PlayFragmentOptions {
  /** The URIs and language to play, computed when the state is entered. */
  readonly media: (args: ActionArgs) => { media: string[]; lang?: string };
  /** Taken when the playback finished by itself. */
  readonly onFinished: TransitionSpec;
  /** Taken when the playback could not start or failed. */
  readonly onFailed: TransitionSpec;
  /**
   * With barge-in: taken on a DTMF digit from the caller, after the playback is stopped (several:
   * the first whose guard holds; each stops the playback).
   */
  readonly onDigit?: TransitionSpec | readonly TransitionSpec[];
  /** Scratch key holding the playback id. */
  readonly scratch: string;
  /** Play on a bridge instead of the call's channel. */
  readonly bridge?: (args: ActionArgs) => string;
}

/** What the play effect returns when there is no media: the fragment finishes at once. */
const NOTHING_TO_PLAY = 'nothing-to-play';

/**
 * A state that plays media and waits for it to finish. The playback id is chosen before the request
 * is sent, so the PlaybackFinished event is recognised even when it arrives before the response.
 * An empty media list finishes at once. The state is atomic, so the transitions given may name
 * the caller's sibling states.
 */
export function playFragment(options: PlayFragmentOptions): StateSpec {
  const { scratch } = options;
  // How a prompt ends, and what a lost barge-in race means, are the runtime's prompt rules
  // (shared with its `play` call actor).
  const endOf = ({ context, event }: ActionArgs) => playbackEnd(event, String(context.step[scratch]));
  const on: Record<string, TransitionSpec[]> = {
    PlaybackFinished: [
      withGuard(options.onFailed, (a) => endOf(a) === 'failed'),
      withGuard(options.onFinished, (a) => endOf(a) === 'finished'),
    ],
  };
  if (options.onDigit) {
    const stop = fireAndForget(async ({ context }) => {
      const playbackId = String(context.step[scratch]);
      if ((await stopPrompt(() => context.host.ari.playbacks.stop({ playbackId }))) === 'ended')
        context.host.log?.debug?.({ playbackId }, 'barge-in stop: the playback had already finished');
    }, 'stop playback on barge-in');
    const onDigit: readonly TransitionSpec[] = Array.isArray(options.onDigit)
      ? options.onDigit
      : [options.onDigit as TransitionSpec];
    on.ChannelDtmfReceived = onDigit.map((t) => withGuard(withActions(t, [stop]), isOwnChannel));
  }
  return {
    entry: [setStep(({ context }) => ({ [scratch]: context.host.newId('playback') }))],
    effect: effect(
      async (args) => {
        const { context } = args;
        const { media, lang } = options.media(args);
        if (media.length === 0) return NOTHING_TO_PLAY;
        const playbackId = String(context.step[scratch]);
        if (options.bridge)
          return context.host.ari.bridges.playWithId({
            bridgeId: options.bridge(args),
            playbackId,
            media,
            ...(lang ? { lang } : {}),
          });
        return context.host.ari.channels.play({
          channelId: context.call.channelId,
          playbackId,
          media,
          ...(lang ? { lang } : {}),
        });
      },
      // Targets stay at this state's level: callers pass sibling names ('waiting') or ids.
      {
        // The play request's reply only matters when there was nothing to play: the playback's
        // own events say when it ends.
        onDone: options.onFinished,
        doneWhen: (output) => output === NOTHING_TO_PLAY,
        onError: options.onFailed,
        // Playing again would repeat the prompt: the playback's events (or the restored
        // session's check of it) say how it ended.
        resume: 'await',
      },
    ),
    on,
  };
}
