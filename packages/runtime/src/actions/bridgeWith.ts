import type { UnansweredReason } from '../behaviours/dialling.ts';
import { withScope } from '../call/withScope.ts';
import { callActor, type WithCall } from './callActor.ts';
import { awaitLeg, type DialOutput, dialLeg, type LegNote } from './dial.ts';

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
  | {
      readonly outcome: 'unanswered';
      readonly peerChannelId: string;
      /** Why, from the hangup cause: busy, noAnswer or failed. */
      readonly reason: UnansweredReason;
      readonly causeText: string;
    };

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
export const bridgeWith = callActor<BridgeWithInput, BridgeWithOutput, LegNote>(
  (input: BridgeWithInput, signal, step): Promise<BridgeWithOutput> =>
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
          step,
        );
        if (leg.outcome === 'unanswered') return unanswered(leg);
        peerChannelId = leg.channelId;
      }
      return bridge(input, peerChannelId, scope);
    }),
  {
    // Restored while the leg rang (or just after it answered): follow that leg rather than
    // place a second call, then bridge as usual.
    resume: (input, note, signal) =>
      withScope(signal, async (scope) => {
        const leg = await awaitLeg(input.call, note.channelId, scope);
        return leg.outcome === 'unanswered' ? unanswered(leg) : bridge(input, leg.channelId, scope);
      }),
  },
);

function unanswered(leg: DialOutput & { outcome: 'unanswered' }): BridgeWithOutput {
  return {
    outcome: 'unanswered',
    peerChannelId: leg.channelId,
    reason: leg.reason,
    causeText: leg.causeText,
  };
}

/** A bridge the call owns, with the call and its peer in it. */
async function bridge(
  input: BridgeWithInput,
  peerChannelId: string,
  signal: AbortSignal,
): Promise<BridgeWithOutput> {
  const { call } = input;
  const bridgeId = call.pickId('bridge');
  call.own('bridge', bridgeId, { cleanup: true });
  await call.request('bridges.create', { bridgeId, type: input.bridgeType ?? 'mixing' }, { signal });
  await call.request(
    'bridges.addChannel',
    { bridgeId, channel: [call.channelId, peerChannelId] },
    { signal },
  );
  return { outcome: 'bridged', bridgeId, peerChannelId };
}
