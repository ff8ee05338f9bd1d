import type { CallHandle, CallInput } from '@ringflow/runtime';
import type { AnyStateMachine } from 'xstate';
import { callFromStasisStart, type FlowHost } from '../compile/FlowHost.ts';
import { compileFlow } from '../compile/compileFlow.ts';
import type { Flow } from '../validate/validateFlow.ts';

/**
 * The effects of a flow, taken from a runtime call: its REST APIs bound to the call (requests
 * tracked by the call's session: counted, cancelled when it ends), clock, application name and
 * logger. Every id the flow picks is owned by the call first, so the events of its playbacks,
 * recordings, dialled channels and bridges reach the flow's machine.
 */
export function hostFromCall(call: CallHandle, options: { fetch?: typeof fetch } = {}): FlowHost {
  return {
    ari: call.api,
    clock: call.clock,
    application: call.app,
    newId: (kind, options) => {
      const id = call.pickId(kind);
      if (options?.owned === false) return id;
      call.own(kind === 'snoop' ? 'channel' : kind, id);
      return id;
    },
    forget: (kind, id) => call.disown(kind, id),
    watch: (kind, id) => call.own(kind, id),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    // The call's logger is made on first use: read it only when a record is written.
    log: {
      warn: (details, message) => call.logger.warn(details, message),
      debug: (details, message) => call.logger.debug(details, message),
    },
  };
}

/**
 * Compiles a flow into the machine `createApplication({ call })` runs for each call: its input
 * is the runtime's `{ call }`, and the flow inputs come from `inputs` (or a function of the call).
 *
 * @example
 * const app = createApplication({ servers, apps: ['ivr'], call: createFlowCallMachine(await loadFlowFile('flows/ivr.yaml')) });
 */
export function createFlowCallMachine(
  flow: Flow,
  options: {
    inputs?: Record<string, unknown> | ((call: CallHandle) => Record<string, unknown>);
    fetch?: typeof fetch;
  } = {},
): AnyStateMachine {
  return compileFlow(flow, {
    adaptInput: (raw) => {
      const { call } = raw as CallInput;
      const inputs = typeof options.inputs === 'function' ? options.inputs(call) : (options.inputs ?? {});
      return { host: hostFromCall(call, options), call: callFromStasisStart(call.start), input: inputs };
    },
  });
}
