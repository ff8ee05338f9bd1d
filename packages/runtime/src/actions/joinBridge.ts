import { callActor, type WithCall } from './callActor.ts';

/** Input of {@link joinBridge}. */
export interface JoinBridgeInput extends WithCall {
  readonly bridgeId: string;
  /** Role in the bridge (`announcer`, `partakers` in holding bridges). */
  readonly role?: string;
}

/**
 * Puts the call into an existing bridge (a conference room made by a bridge session). The
 * bridge's events reach the call from then on; the bridge is not destroyed when the call ends.
 *
 * @example
 * invoke: { src: 'joinBridge', input: ({ context }) => ({ call: context.call, bridgeId: 'room-7' }), onDone: 'inConference' }
 */
export const joinBridge = callActor(
  async ({ call, bridgeId, role }: JoinBridgeInput, signal): Promise<void> => {
    call.own('bridge', bridgeId, { cleanup: false });
    await call.request(
      'bridges.addChannel',
      { bridgeId, channel: call.channelId, ...(role === undefined ? {} : { role }) },
      { signal },
    );
  },
);
