import type { ChannelsHangupParams } from '@ringflow/client';
import { callActor, type WithCall } from './callActor.ts';

/** Input of {@link hangup}. */
export interface HangupInput extends WithCall {
  /** Why: `normal` (default), `busy`, `congestion`, `no_answer`, ... */
  readonly reason?: ChannelsHangupParams['reason'];
}

/**
 * Hangs the call up. A call that is already gone counts as hung up.
 *
 * @example
 * goodbye: { invoke: { src: 'hangup', input: ({ context }) => ({ call: context.call, reason: 'normal' }) } }
 */
export const hangup = callActor(async ({ call, reason }: HangupInput, signal): Promise<void> => {
  await call.channel.hangup(reason ? { reason } : {}, { signal });
});
