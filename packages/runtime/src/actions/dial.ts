import type { Channel, ChannelDestroyed, StasisStart } from '@ringflow/client';
import type { CallHandle } from '../call/CallHandle.ts';
import { nextEvent } from '../call/nextEvent.ts';
import { withScope } from '../call/withScope.ts';
import { callActor, type WithCall } from './callActor.ts';

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
export const dial = callActor((input: DialInput, signal) => dialLeg(input, signal));

/** The steps of {@link dial}, for helpers built on it. */
export function dialLeg(input: DialInput, signal: AbortSignal): Promise<DialOutput> {
  return withScope(signal, async (scope) => {
    const call: CallHandle = input.call;
    const channelId = call.pickId('channel');
    call.own('channel', channelId, { cleanup: true });
    const settled = nextEvent<StasisStart | ChannelDestroyed>(
      call.events$,
      (e) =>
        (e.type === 'StasisStart' || e.type === 'ChannelDestroyed') &&
        (e as StasisStart).channel?.id === channelId,
      scope,
    );
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
    const event = await settled;
    if (event.type === 'StasisStart') return { outcome: 'answered', channelId, channel: event.channel };
    return { outcome: 'unanswered', channelId, cause: event.cause, causeText: event.cause_txt };
  });
}
