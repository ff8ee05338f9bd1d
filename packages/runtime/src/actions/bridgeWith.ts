import { withScope } from '../call/withScope.ts';
import { callActor, type WithCall } from './callActor.ts';
import { dialLeg } from './dial.ts';

/** Input of {@link bridgeWith}: whom to connect the call to. */
export interface BridgeWithInput extends WithCall {
  /** Dial this endpoint first (a leg owned by the call) ... */
  readonly endpoint?: string;
  /** ... or bridge with a channel that already exists (another call's channel). */
  readonly channelId?: string;
  /** Bridge type attributes. Default `mixing`. */
  readonly bridgeType?: string;
  readonly callerId?: string;
  readonly timeoutSeconds?: number;
}

/** Output of {@link bridgeWith}. */
export type BridgeWithOutput =
  | { readonly outcome: 'bridged'; readonly bridgeId: string; readonly peerChannelId: string }
  | { readonly outcome: 'unanswered'; readonly peerChannelId: string; readonly causeText: string };

/**
 * Connects the call with another party in a bridge the call owns (created with an id picked and
 * owned first, destroyed when the call ends). Dials `endpoint` when given. Finishes once both
 * channels are in the bridge; the peer's events (ChannelLeftBridge, StasisEnd) then reach the call.
 *
 * @example
 * toAgent: {
 *   invoke: {
 *     src: 'bridgeWith',
 *     input: ({ context }) => ({ call: context.call, endpoint: 'PJSIP/agent' }),
 *     onDone: [{ guard: ({ event }) => event.output.outcome === 'bridged', target: 'talking' }, { target: 'noAgent' }],
 *   },
 * }
 */
export const bridgeWith = callActor(
  (input: BridgeWithInput, signal): Promise<BridgeWithOutput> =>
    withScope(signal, async (scope) => {
      const { call } = input;
      let peerChannelId = input.channelId;
      if (peerChannelId === undefined) {
        if (input.endpoint === undefined) {
          throw new TypeError(
            'bridgeWith: give input.endpoint (to dial) or input.channelId (an existing channel)',
          );
        }
        const leg = await dialLeg(
          {
            call,
            endpoint: input.endpoint,
            ...(input.callerId === undefined ? {} : { callerId: input.callerId }),
            ...(input.timeoutSeconds === undefined ? {} : { timeoutSeconds: input.timeoutSeconds }),
          },
          scope,
        );
        if (leg.outcome === 'unanswered') {
          return { outcome: 'unanswered', peerChannelId: leg.channelId, causeText: leg.causeText };
        }
        peerChannelId = leg.channelId;
      }
      const bridgeId = call.pickId('bridge');
      call.own('bridge', bridgeId, { cleanup: true });
      await call.request(
        'bridges.create',
        { bridgeId, type: input.bridgeType ?? 'mixing' },
        { signal: scope },
      );
      await call.request(
        'bridges.addChannel',
        { bridgeId, channel: [call.channelId, peerChannelId] },
        { signal: scope },
      );
      return { outcome: 'bridged', bridgeId, peerChannelId };
    }),
);
