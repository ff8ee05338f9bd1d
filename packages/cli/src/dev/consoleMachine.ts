import { createFlowCallMachine, type Flow, type FlowCall } from '@ringflow/dsl';
import type { AgentServices } from '@ringflow/runtime';
import type { AnyStateMachine } from 'xstate';
import { type CallRecorder, recordingHost } from './CallRecorder.ts';
import type { ConsoleFeed } from './ConsoleFeed.ts';
import { formatStepFailure } from './formatStepFailure.ts';

/**
 * A flow's call machine as `createFlowCallMachine` makes it (fixed inputs, checked now), whose
 * calls tell the console's feed their user events and step failures (with their cause), and
 * tell `recorder` (when given) each request, so that a call can be saved as a scenario;
 * `started` is told who each call is as its machine starts (before its first request); `agents`
 * gives each call's agent steps their services (see DevAgents), by the call's channel id.
 *
 * @example
 * const app = createApplication({ ..., call: consoleMachine(flow, {}, feed) });
 */
export function consoleMachine(
  flow: Flow,
  inputs: Readonly<Record<string, unknown>>,
  feed: ConsoleFeed,
  recorder?: CallRecorder,
  started?: (call: FlowCall) => void,
  agents?: (call: string) => AgentServices,
): AnyStateMachine {
  return createFlowCallMachine(flow, {
    inputs: { ...inputs },
    host: (host, call) => {
      const id = call.channelId;
      started?.(call);
      return recordingHost(host, id, recorder, {
        ...(agents ? { agents: agents(id) } : {}),
        failure: (failure) => feed.line(id, 'failure', `✗ ${formatStepFailure(failure)}`),
        request: (operation, params) => {
          if (operation === 'events.userEvent')
            feed.line(
              id,
              'userEvent',
              `✉ user event ${String(params.eventName)} ${JSON.stringify(params.variables ?? {})}`,
            );
        },
      });
    },
  });
}
