import type { CallHandle } from '../call/CallHandle.ts';
import type { AgentInput, AgentServices, AgentSettings } from './AgentServices.ts';

/**
 * The input of {@link agentMachine} for a call of a hand-written machine: the call's tracked
 * REST API, clock and application, ids owned by the call (so the media channel's events reach the
 * machine, and what is left is removed when the call ends).
 *
 * A machine that invokes the session forwards it the media channel's `StasisStart` and the
 * caller's `ChannelDtmfReceived`, and answers its `ringflow.agent.tool` requests:
 * @example
 * invoke: { id: 'agent', src: agentMachine, input: ({ context }) => agentInputOfCall(context.call, services, settings),
 *   onDone: { target: 'after', actions: ({ event }) => console.log(event.output.outcome) } },
 * on: { StasisStart: { actions: sendTo('agent', ({ event }) => event) }, ChannelDtmfReceived: { actions: sendTo('agent', ({ event }) => event) } }
 */
export function agentInputOfCall(
  call: CallHandle,
  services: AgentServices,
  settings: AgentSettings,
): AgentInput {
  const channel = call.start.channel;
  return {
    call: {
      channelId: call.channelId,
      ...(channel.caller ? { caller: { number: channel.caller.number, name: channel.caller.name } } : {}),
      ...(channel.dialplan ? { extension: channel.dialplan.exten } : {}),
      ...(channel.language ? { language: channel.language } : {}),
    },
    ari: call.api,
    application: call.app,
    clock: call.clock,
    newId: (kind) => {
      const id = call.pickId(kind);
      call.own(kind, id);
      return id;
    },
    services,
    settings,
  };
}
