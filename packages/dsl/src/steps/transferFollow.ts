import { isEventType } from '@ringflow/client/interface';
import { setContext } from '../compile/effects.ts';
import type { ActionArgs } from '../compile/FlowContext.ts';
import type { TransitionSpec } from '../compile/StateSpec.ts';

/** A StasisStart of the channel that replaced the call's own (a transfer made by a phone). */
function replacesOwnChannel({ context, event }: ActionArgs): boolean {
  return isEventType(event, 'StasisStart') && event.replace_channel?.id === context.call.channelId;
}

/**
 * The flow-wide handler that follows a transfer made by a phone: the channel that replaced the
 * call's own (`replace_channel`) is the call's from then on, so the steps that follow act on it
 * (the runtime's session follows it the same way). The flow's `transferred` event
 * (BridgeBlindTransfer, BridgeAttendedTransfer) is for the flow to handle or ignore.
 */
export const followTransferredCall: TransitionSpec = {
  guard: replacesOwnChannel,
  actions: [
    setContext(({ context, event }) => ({
      call: {
        ...context.call,
        channelId: isEventType(event, 'StasisStart') ? event.channel.id : context.call.channelId,
      },
    })),
  ],
};
