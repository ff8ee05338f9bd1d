import { callActor, type WithCall } from './callActor.ts';

/** Input of {@link continueAt}: where in the dialplan to resume; omitted parts keep the channel's own. */
export interface ContinueAtInput extends WithCall {
  readonly context?: string;
  readonly extension?: string;
  readonly priority?: number;
  /** A priority label (`menu` in `same => n(menu),Playback(beep)`); interface 1.7.0 and later. */
  readonly label?: string;
}

/**
 * Sends the call back to the dialplan at a context/extension/priority or label. The channel leaves
 * the application (StasisEnd follows) and the session ends; if the dialplan sends it back with
 * `Stasis(...)`, a new session starts.
 *
 * @example
 * toQueue: { invoke: { src: 'continueAt', input: ({ context }) => ({ call: context.call, context: 'default', extension: '100', label: 'menu' }) } }
 */
export const continueAt = callActor(async (input: ContinueAtInput, signal): Promise<void> => {
  const { call, ...where } = input;
  await call.channel.continueInDialplan(where, { signal });
});
