import type { AgentServices, CallHandle, CallInput, QueueSettings, StepFailure } from '@ringflow/runtime';
import { defineLiveValue, PERSIST, type PersistedValue } from '@ringflow/runtime/engine';
import type { AnyStateMachine } from 'xstate';
import type { Clock } from '@ringflow/client';
import {
  callFromStasisStart,
  type FlowAri,
  type FlowCall,
  type FlowHost,
  type FlowLog,
  type FlowQueue,
} from '../compile/FlowHost.ts';
import { compileFlow } from '../compile/compileFlow.ts';
import { flowInputsOrThrow } from '../inputs/FlowInputError.ts';
import type { Flow } from '../validate/validateFlow.ts';

/**
 * The effects of a flow, taken from a runtime call: its REST APIs bound to the call (requests
 * tracked by the call's session: counted until settled, a 404 on the call's channel is `call.gone`), clock, application name and
 * logger. Every id the flow picks is owned by the call first, so the events of its playbacks,
 * recordings, dialled channels and bridges reach the flow's machine. A class, so its methods are
 * shared by every call rather than made per call.
 */
class CallFlowHost implements FlowHost {
  readonly #call: CallHandle;
  readonly fetch?: typeof fetch;
  readonly agents?: AgentServices;
  #log: FlowLog | undefined;

  constructor(call: CallHandle, fetchImpl: typeof fetch | undefined, agents?: AgentServices) {
    this.#call = call;
    if (fetchImpl) this.fetch = fetchImpl;
    if (agents) this.agents = agents;
  }

  get ari(): FlowAri {
    return this.#call.api;
  }
  get clock(): Clock {
    return this.#call.clock;
  }
  get application(): string {
    return this.#call.app;
  }

  newId(
    kind: 'playback' | 'recording' | 'channel' | 'bridge' | 'snoop',
    options?: { readonly owned?: boolean },
  ) {
    const id = this.#call.pickId(kind);
    if (options?.owned === false) return id;
    this.#call.own(kind === 'snoop' ? 'channel' : kind, id);
    return id;
  }

  forget(kind: 'channel' | 'bridge', id: string): void {
    this.#call.disown(kind, id);
  }

  reportFailure(failure: StepFailure): void {
    this.#call.reportFailure(failure);
  }

  queue(name: string, settings: QueueSettings): Required<FlowQueue> {
    const call = this.#call;
    const queue = call.queue(name, settings);
    return {
      join: (restored) => queue.join({ callId: call.id, tell: (event) => call.send(event) }, restored),
      talking: (agent) => queue.talking(call.id, agent),
      leave: (reason) => queue.leave(call.id, reason),
      answered: (agent) => queue.answered(call.id, agent),
      unanswered: () => queue.unanswered(call.id),
      agentFree: (agent) => queue.agentFree(agent),
      agent: (endpoint, action) => queue.agent(endpoint, action),
      position: () => queue.positionOf(call.id),
      expectedWaitMs: () => queue.expectedWaitMs(),
      waiting: () => queue.waiting(),
      agentsFree: () => queue.agentsFree(),
    };
  }

  watch(kind: 'recording' | 'bridge', id: string, options?: { readonly shared?: boolean }): void {
    this.#call.own(kind, id, { cleanup: options?.shared ? 'when-empty' : true });
  }

  /**
   * In a call's snapshot the host is a marker: the process restoring the call makes a host of
   * its own call (see `defineLiveValue` below). A `fetch` given to the machine is not carried
   * over: the restored host uses the global one.
   */
  [PERSIST](): PersistedValue {
    return { $ringflow: 'flowHost' };
  }

  /** The call's logger is made on first use: read only when a record is written. */
  get log(): FlowLog {
    const call = this.#call;
    this.#log ??= {
      warn: (details, message) => call.logger.warn(details, message),
      debug: (details, message) => call.logger.debug(details, message),
    };
    return this.#log;
  }
}

// A restored call's flow gets a host of the call that took it over.
defineLiveValue('flowHost', (_marker, call) => hostFromCall(call as CallHandle));

/**
 * The effects of a flow, taken from a runtime call (see {@link CallFlowHost}).
 * @example const host = hostFromCall(call); host.newId('playback'); // owned by the call
 */
export function hostFromCall(
  call: CallHandle,
  options: { fetch?: typeof fetch; agents?: AgentServices } = {},
): FlowHost {
  return new CallFlowHost(call, options.fetch, options.agents);
}

/**
 * Compiles a flow into the machine `createApplication({ call })` runs for each call: its input
 * is the runtime's `{ call }`, and the flow inputs come from `inputs` (or a function of the call),
 * converted to their declared types: a fixed `inputs` that does not fit throws `FlowInputError` here.
 *
 * @example
 * const app = createApplication({ servers, apps: ['ivr'], call: createFlowCallMachine(await loadFlowFile('flows/ivr.yaml')) });
 */
export function createFlowCallMachine(
  flow: Flow,
  options: {
    inputs?: Record<string, unknown> | ((call: CallHandle) => Record<string, unknown>);
    fetch?: typeof fetch;
    /** What agent steps connect to (`createAgentServices`); without it they end with failed. */
    agents?: AgentServices;
    /** Wraps each call's host (a console watching what the flow does); the host as it is by default. */
    host?: (host: FlowHost, call: FlowCall) => FlowHost;
  } = {},
): AnyStateMachine {
  const declared = flow.document.inputs ?? {};
  // Fixed inputs are checked now, so a wrong one stops the application before any call arrives.
  const fixed =
    typeof options.inputs === 'function'
      ? undefined
      : flowInputsOrThrow(flow.document.name, declared, options.inputs ?? {});
  return compileFlow(flow, {
    adaptInput: (raw) => {
      const { call } = raw as CallInput;
      const inputs =
        typeof options.inputs === 'function'
          ? flowInputsOrThrow(flow.document.name, declared, options.inputs(call))
          : fixed;
      const info = callFromStasisStart(call.start);
      const host = hostFromCall(call, options);
      return { host: options.host ? options.host(host, info) : host, call: info, input: inputs };
    },
  });
}
