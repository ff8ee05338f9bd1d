import type { Channel, ChannelDestroyed, StasisStart } from '@ringflow/client';
import { dialOutcomeForCause, type UnansweredReason } from '../behaviours/dialling.ts';
import type { CallHandle } from '../call/CallHandle.ts';
import { nextEvent } from '../call/nextEvent.ts';
import { withScope } from '../call/withScope.ts';
import { type CallStep, callActor, type WithCall } from './callActor.ts';

/** Input of {@link dial}. */
export interface DialInput extends WithCall {
  /** Whom to call: `PJSIP/alice`, `Local/100@agents`. */
  readonly endpoint: string;
  readonly callerId?: string;
  /** Seconds to wait for an answer. Default 30 (the server's default). */
  readonly timeoutSeconds?: number;
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Arguments the new channel's StasisStart carries. */
  readonly appArgs?: string;
}

/** Output of {@link dial}. */
export type DialOutput =
  | { readonly outcome: 'answered'; readonly channelId: string; readonly channel: Channel }
  | {
      readonly outcome: 'unanswered';
      readonly channelId: string;
      /** Why, from the hangup cause (the same rule as the flow language's `dial`). */
      readonly reason: UnansweredReason;
      readonly cause: number;
      readonly causeText: string;
    };

/**
 * Places an outgoing leg that belongs to the call: its id is picked and owned before the
 * originate request, it enters the call's application, its events reach this call, and it is hung
 * up when the call ends. Finishes when the leg enters the application (answered) or is destroyed
 * without doing so (busy, no answer...).
 *
 * @example
 * invoke: { src: 'dial', input: ({ context }) => ({ call: context.call, endpoint: 'PJSIP/agent' }), onDone: ... }
 */
/** What a dial notes once its leg is placed: the leg a restored call follows. */
export interface LegNote {
  readonly channelId: string;
}

export const dial = callActor<DialInput, DialOutput, LegNote>(
  (input, signal, step) => dialLeg(input, signal, step),
  {
    // Restored while the leg rang: follow that leg (its events, or the restored session's check of
    // it) rather than place a second call.
    resume: (input, note, signal) =>
      withScope(signal, (scope) => awaitLeg(input.call, note.channelId, scope)),
  },
);

/** How a leg the call already placed ends (for an actor restored while it rang). */
export async function awaitLeg(
  call: CallHandle,
  channelId: string,
  signal: AbortSignal,
): Promise<DialOutput> {
  return outputOf(channelId, await legSettled(call, channelId, signal));
}

/** The steps of {@link dial}, for helpers built on it. */
export function dialLeg(
  input: DialInput,
  signal: AbortSignal,
  step?: CallStep<LegNote>,
): Promise<DialOutput> {
  return withScope(signal, async (scope) => {
    const call: CallHandle = input.call;
    const channelId = call.pickId('channel');
    call.own('channel', channelId, { cleanup: true });
    step?.started({ channelId });
    const settled = legSettled(call, channelId, scope);
    try {
      await call.request(
        'channels.originate',
        {
          endpoint: input.endpoint,
          app: call.app,
          channelId,
          ...(input.appArgs === undefined ? {} : { appArgs: input.appArgs }),
          ...(input.callerId === undefined ? {} : { callerId: input.callerId }),
          ...(input.timeoutSeconds === undefined ? {} : { timeout: input.timeoutSeconds }),
          ...(input.variables === undefined ? {} : { variables: { ...input.variables } }),
        },
        { signal: scope },
      );
    } catch (error) {
      call.disown('channel', channelId);
      throw error;
    }
    return outputOf(channelId, await settled);
  });
}

/** The leg entered the application (answered) or was destroyed without doing so. */
function legSettled(call: CallHandle, channelId: string, signal: AbortSignal) {
  return nextEvent<StasisStart | ChannelDestroyed>(
    call.events$,
    (e) =>
      (e.type === 'StasisStart' || e.type === 'ChannelDestroyed') &&
      (e as StasisStart).channel?.id === channelId,
    signal,
  );
}

function outputOf(channelId: string, event: StasisStart | ChannelDestroyed): DialOutput {
  if (event.type === 'StasisStart') return { outcome: 'answered', channelId, channel: event.channel };
  return {
    outcome: 'unanswered',
    channelId,
    reason: dialOutcomeForCause(event.cause),
    cause: event.cause,
    causeText: event.cause_txt,
  };
}
