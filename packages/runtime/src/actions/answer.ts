import { callActor, type WithCall } from './callActor.ts';

/**
 * Answers the call.
 *
 * @example
 * answering: { invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'welcome' } }
 */
export const answer = callActor(async ({ call }: WithCall, signal): Promise<void> => {
  await call.channel.answer({}, { signal });
});
