import { type AnyStateMachine, createMachine } from 'xstate';
import { EffectRunner, lowerEffects, RESUMED_EVENT } from '@ringflow/runtime/engine';
import { flowEvents } from '../model/flowEvents.ts';
import type { FlowDocument, StateDocument, SubflowDocument } from '../model/flowSchema.ts';
import type { FlowCompileInfo } from '../steps/StepDefinition.ts';
import type { QueueSettings } from '@ringflow/runtime';
import { queueSettingsOf } from '../model/queueSettings.ts';
import type { Path } from '../validate/Diagnostic.ts';
import { type Flow, flowPlace } from '../validate/validateFlow.ts';
import { flowInputsOrThrow } from '../inputs/FlowInputError.ts';
import { compileState } from './compileState.ts';
import { channelIdOf, effect, setContext } from './effects.ts';
import { FailureRouting } from './failureRouting.ts';
import type { ActionArgs, FlowContext } from './FlowContext.ts';
import type { FlowMachineInput, FlowOutput } from './FlowHost.ts';
import { combine, compileTransitions, END, eventBinding, ROOT, serverEvent } from './flowTransitions.ts';
import type { StateSpec, TransitionSpec } from './StateSpec.ts';
import { followTransferredCall } from '../steps/transferFollow.ts';

type Body = SubflowDocument;

/** Options of {@link compileFlow}. */
export interface CompileOptions {
  /** Subflows hand the call back instead of hanging it up when they end. */
  readonly role?: 'main' | 'subflow';
  /** Turns the machine's input into a {@link FlowMachineInput} (to run under another runtime's input shape). */
  readonly adaptInput?: (input: unknown) => FlowMachineInput;
}

/**
 * Compiles a validated flow into an XState machine. Each flow state becomes a compound state whose
 * children are its steps (each a small statechart) and the routing of their outcomes. Input:
 * {@link FlowMachineInput}; output: {@link FlowOutput}.
 *
 * @example
 * const machine = compileFlow(await loadFlowFile('flows/ivr.yaml'));
 * const actor = createActor(machine, { input: { host, call }, clock });
 */
export function compileFlow(flow: Flow, options: CompileOptions = {}): AnyStateMachine {
  const doc = flow.document;
  const subflows = new Map<string, AnyStateMachine>();
  const queues = new Map(Object.entries(doc.queues ?? {}).map(([name, q]) => [name, queueSettingsOf(q)]));
  const shared: DocumentParts = { subflows, queues };
  for (const [name, sub] of Object.entries(doc.subflows ?? {}))
    subflows.set(
      name,
      compileBody(sub, 'subflow', shared, `${doc.name}/${name}`, (path) =>
        flowPlace(flow, ['subflows', name, ...path]),
      ),
    );
  return compileBody(
    doc,
    options.role ?? 'main',
    shared,
    doc.name,
    (path) => flowPlace(flow, path),
    options.adaptInput,
  );
}

/**
 * Compiles one flow body (the flow, or one of its subflows) into a machine: each state (see
 * {@link compileState}), the `$finish` state that hangs the call up (main flows), the flow-wide
 * handlers on the root, and the engine's lowering of effects and timers.
 */
/** What the flow and its subflows share: the compiled subflows, the queues' settings. */
interface DocumentParts {
  readonly subflows: Map<string, AnyStateMachine>;
  readonly queues: ReadonlyMap<string, QueueSettings>;
}

function compileBody(
  body: Body,
  role: 'main' | 'subflow',
  { subflows, queues }: DocumentParts,
  name: string,
  place: (path: Path) => string,
  adaptInput?: (input: unknown) => FlowMachineInput,
): AnyStateMachine {
  const info: FlowCompileInfo = {
    defaultLanguage: body.language ?? 'en',
    prompt: (prompt, language) => {
      const media = body.prompts?.[language]?.[prompt];
      return media === undefined ? undefined : Array.isArray(media) ? media : [media];
    },
    subflow: (sub) => {
      const machine = subflows.get(sub);
      if (!machine) throw new Error(`subflow "${sub}" is not defined in this document`);
      return machine;
    },
    queue: (queue) => queues.get(queue),
  };
  const globalOn = body.on ?? {};
  const failures = new FailureRouting(globalOn);
  const states: Record<string, StateSpec> = {};
  for (const [stateName, state] of Object.entries(body.states))
    states[stateName] = compileState(stateName, state as StateDocument, {
      flowName: name,
      info,
      failures,
      place,
    });
  states.$finish = finishState(role);
  states.$end = { type: 'final' };
  const lowered = lowerEffects(states);
  const rootOn = rootHandlers(globalOn, failures);
  // A restored call's engine takes up what was under way when its snapshot was written.
  rootOn[RESUMED_EVENT] = [{ actions: [lowered.resume] }];
  return createMachine({
    id: ROOT,
    description: name,
    context: ({ input }: { input: unknown }): FlowContext =>
      initialContext(body, name, adaptInput ? adaptInput(input) : (input as FlowMachineInput)),
    initial: body.start,
    states: lowered.states,
    on: rootOn,
    output: ({ context }: { context: FlowContext }): FlowOutput => ({
      status: finalStatus(context),
      state: context.state,
      vars: context.vars,
      ...(context.output ? { output: context.output } : {}),
      // The failure an error handler took over (recovered), or that ended the flow (failed).
      ...(context.error ? { error: context.error } : {}),
    }),
    // Our own small state types (StateSpec) stand for XState's config types, which are generic
    // over a machine's whole setup: the compiler's output is checked by the tests instead.
  } as never);
}

/** Where a flow ends: a main flow hangs its call up if it is still here; a subflow hands it back. */
function finishState(role: 'main' | 'subflow'): StateSpec {
  return {
    always: [{ guard: ({ context }: ActionArgs) => role === 'subflow' || context.hungUp, target: END }],
    effect: effect(
      ({ context }) =>
        context.host.ari.channels.hangup({ channelId: context.call.channelId, reason: 'normal' }),
      {
        onDone: { target: END, actions: [setContext(() => ({ hungUp: true }))] },
        onError: { target: END, actions: [setContext(() => ({ hungUp: true }))] },
      },
    ),
  };
}

/**
 * Flow-level handlers, on the root so they apply in every state (states' own handlers win, being
 * deeper): the caller's hangup, and the flow's `on` events.
 */
function rootHandlers(
  globalOn: NonNullable<Body['on']>,
  failures: FailureRouting,
): Record<string, TransitionSpec[]> {
  const rootOn: Record<string, TransitionSpec[]> = {};
  // Once the flow is ending (status decided, hanging the call up in $finish), the call's own
  // hangup events are the flow's doing: they must not turn a failed or completed run into hungUp.
  const own = ({ context, event }: ActionArgs) =>
    !context.hungUp &&
    context.status === 'running' &&
    // call.gone (the runtime's) names the channel as channelId.
    (channelIdOf(event) ?? (typeof event.channelId === 'string' ? event.channelId : undefined)) ===
      context.call.channelId;
  for (const type of [...flowEvents.hangup.ari, 'call.gone'])
    rootOn[type] = failures
      .hangupRoutes(undefined, serverEvent)
      .map((t) => ({ ...t, guard: combine(own, t.guard) }));
  // A phone transferred the call: it goes on on the channel that replaced its own.
  rootOn.StasisStart = [followTransferredCall];
  for (const [event, value] of Object.entries(globalOn)) {
    if (event === 'hangup' || event === 'error') continue;
    const binding = eventBinding(event);
    for (const type of binding.types)
      rootOn[type] = [
        ...(rootOn[type] ?? []),
        ...compileTransitions(value, serverEvent).map((t) =>
          binding.guard ? { ...t, guard: combine(binding.guard, t.guard) } : t,
        ),
      ];
  }
  return rootOn;
}

/**
 * How the run ended, for its output: a flow whose caller hung up first is `hungUp` (also when its
 * hangup handler reached a final state); one that ended by itself after an error handler took
 * over a failure is `recovered`, not `completed` (it is not a plain success).
 */
function finalStatus(context: FlowContext): FlowOutput['status'] {
  const status = context.status === 'running' ? 'completed' : context.status;
  if (status !== 'completed') return status;
  // The caller left first: whatever the hangup handler did afterwards, the call ended that way.
  if (context.callerLeft) return 'hungUp';
  return context.error !== undefined ? 'recovered' : status;
}

/** Inputs converted to their declared types with defaults applied (FlowInputError otherwise), then the declared variables; a missing required input is an error at start. */
function initialContext(body: Body, name: string, input: FlowMachineInput): FlowContext {
  // Converting again what a caller already converted changes nothing; it covers callers that did not.
  const inputs = flowInputsOrThrow(name, body.inputs ?? {}, input.input ?? {});
  return {
    host: input.host,
    effects: new EffectRunner(input.host.clock),
    call: input.call,
    input: inputs,
    vars: body.vars ? structuredClone(body.vars) : {},
    result: undefined,
    step: {},
    bridgeId: undefined,
    hungUp: false,
    output: undefined,
    error: undefined,
    errorRouted: false,
    inErrorHandler: false,
    status: 'running',
    state: body.start,
    callerLeft: false,
  };
}

export type { FlowDocument };
