import type { ChannelsSnoopChannelWithIdParams } from '@ringflow/client';
import { callActor, type WithCall } from './callActor.ts';

/** Input of {@link snoop}. */
export interface SnoopInput extends WithCall {
  /** Which audio of the call the snoop channel hears. Default `both`. */
  readonly spy?: ChannelsSnoopChannelWithIdParams['spy'];
  /** Which way the snoop channel's audio goes into the call. Default `none`. */
  readonly whisper?: ChannelsSnoopChannelWithIdParams['whisper'];
  readonly appArgs?: string;
}

/**
 * Creates a snoop channel on the call (to record, monitor or coach), owned by the call: its id is
 * picked and owned first, its events reach the call, and it is hung up when the call ends.
 *
 * @example
 * invoke: { src: 'snoop', input: ({ context }) => ({ call: context.call, spy: 'both' }), onDone: { actions: assign({ snoopId: ({ event }) => event.output.channelId }) } }
 */
export const snoop = callActor(async (input: SnoopInput, signal): Promise<{ channelId: string }> => {
  const { call } = input;
  const snoopId = call.pickId('snoop');
  call.own('channel', snoopId, { cleanup: true });
  try {
    await call.channel.snoopChannelWithId(
      {
        snoopId,
        app: call.app,
        spy: input.spy ?? 'both',
        whisper: input.whisper ?? 'none',
        ...(input.appArgs === undefined ? {} : { appArgs: input.appArgs }),
      },
      { signal },
    );
  } catch (error) {
    call.disown('channel', snoopId);
    throw error;
  }
  return { channelId: snoopId };
});
