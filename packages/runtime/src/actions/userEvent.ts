import { callActor, type WithCall } from './callActor.ts';

/** Input of {@link userEvent}. */
export interface UserEventInput extends WithCall {
  readonly name: string;
  /** Custom key/value pairs carried in `userevent`. */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Application receiving it; default: the call's application. */
  readonly application?: string;
  /** Extra sources (`bridge:b1`, `endpoint:PJSIP/100`); the call's channel is always included. */
  readonly sources?: readonly string[];
}

/**
 * Raises a user event, with the call's channel as its source (ChannelUserevent is sent to the
 * application).
 *
 * @example
 * invoke: { src: 'userEvent', input: ({ context }) => ({ call: context.call, name: 'MenuChosen', variables: { option: context.choice } }) }
 */
export const userEvent = callActor(async (input: UserEventInput, signal): Promise<void> => {
  const { call } = input;
  await call.request(
    'events.userEvent',
    {
      eventName: input.name,
      application: input.application ?? call.app,
      source: [`channel:${call.channelId}`, ...(input.sources ?? [])],
      ...(input.variables ? { variables: { ...input.variables } } : {}),
    },
    { signal },
  );
});
