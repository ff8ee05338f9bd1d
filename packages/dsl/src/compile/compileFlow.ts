import { type AnyStateMachine, createMachine } from 'xstate';
import { flowEvents, USER_EVENT_PREFIX } from '../model/flowEvents.ts';
import type { FlowDocument, StateDocument, SubflowDocument } from '../model/flowSchema.ts';
import { type FlowTransitions, transitionList } from '../model/transition.ts';
import { parseDuration } from '../schema/s.ts';
import { stepDefinition } from '../steps/index.ts';
import type { FlowCompileInfo, OutcomeKind, StepBuild } from '../steps/StepDefinition.ts';
import { EffectRunner, lowerEffects, RESUMED_EVENT } from '@ringflow/runtime/engine';
import type { StepFailure } from '@ringflow/runtime';
import type { Path } from '../validate/Diagnostic.ts';
import { type Flow, flowPlace } from '../validate/validateFlow.ts';
import { effect, setContext, setVars } from './effects.ts';
import {
  type ActionArgs,
  type FailureFacts,
  type FlowContext,
  resolveValue,
  safeCondition,
  scopeOf,
} from './FlowContext.ts';
import type { FlowMachineInput, FlowOutput } from './FlowHost.ts';
import { flowInputsOrThrow } from '../inputs/FlowInputError.ts';
import type { Action, StateSpec, TransitionSpec } from './StateSpec.ts';

type Body = SubflowDocument;

/** Root id of every compiled machine: flow states are `#flow.<name>`. */
const ROOT = 'flow';
const FINISH = `#${ROOT}.$finish`;
const END = `#${ROOT}.$end`;

function stateTarget(name: string): string {
  return `#${ROOT}.${name}`;
}

function stepEntries(step: unknown): [string, Record<string, unknown>] {
  if (typeof step === 'string') return [step, {}];
  const [name, body] = Object.entries(step as object)[0]!;
  return [name, (body ?? {}) as Record<string, unknown>];
}

/** Assigns each `set` entry in order (later entries see earlier ones); a failing expression is logged and skipped. */
function assignments(
  set: Record<string, unknown> | undefined,
  eventOf: (a: ActionArgs) => unknown,
): Action[] {
  if (!set || Object.keys(set).length === 0) return [];
  return [
    setVars((args) => {
      let vars = { ...args.context.vars };
      for (const [name, value] of Object.entries(set)) {
        try {
          vars = { ...vars, [name]: resolveValue(value, scopeOf({ ...args.context, vars }, eventOf(args))) };
        } catch (e) {
          args.context.host.log?.warn(
            { variable: name, error: (e as Error).message },
            'flow assignment failed; variable unchanged',
          );
        }
      }
      return vars;
    }),
  ];
}

/**
 * Compiles flow transitions into XState transitions. `eventOf` says what `event` means for their
 * conditions (the server event, or the step result). Without a `goto`, the transition stays put
 * (or, with `fallthrough`, goes on to it).
 */
function compileTransitions(
  value: FlowTransitions | undefined,
  eventOf: (a: ActionArgs) => unknown,
  fallthrough?: string,
): TransitionSpec[] {
  return transitionList(value).map((t) => {
    const target = t.goto !== undefined ? stateTarget(t.goto) : fallthrough;
    const condition = t.if;
    return {
      ...(target ? { target } : {}),
      ...(t.goto !== undefined ? { reenter: true } : {}),
      ...(condition !== undefined
        ? { guard: (a: ActionArgs) => safeCondition(condition, a.context, eventOf(a)) }
        : {}),
      actions: assignments(t.set, eventOf),
    };
  });
}

const serverEvent = (a: ActionArgs) => a.event;
const stepResult = (a: ActionArgs) => a.context.result;

/** The server events behind an `on` key, and whether they must be about this call's channel. */
function eventBinding(name: string): { types: string[]; guard?: (a: ActionArgs) => boolean } {
  if (name.startsWith(USER_EVENT_PREFIX)) {
    const wanted = name.slice(USER_EVENT_PREFIX.length);
    return { types: ['ChannelUserevent'], guard: ({ event }) => event.eventname === wanted };
  }
  const alias = (flowEvents as Record<string, { ari: readonly string[]; own: boolean }>)[name];
  if (!alias) return { types: [name] };
  const own = ({ context, event }: ActionArgs) =>
    (event.channel as { id?: string } | undefined)?.id === context.call.channelId;
  return alias.own ? { types: [...alias.ari], guard: own } : { types: [...alias.ari] };
}

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
  for (const [name, sub] of Object.entries(doc.subflows ?? {}))
    subflows.set(
      name,
      compileBody(sub, 'subflow', subflows, `${doc.name}/${name}`, (path) =>
        flowPlace(flow, ['subflows', name, ...path]),
      ),
    );
  return compileBody(
    doc,
    options.role ?? 'main',
    subflows,
    doc.name,
    (path) => flowPlace(flow, path),
    options.adaptInput,
  );
}

/** Which step failed, known when the flow is compiled (the rest of a report comes at run time). */
type StepSite = Pick<StepFailure, 'flow' | 'state' | 'step' | 'index' | 'at'>;

/**
 * The action that reports a step failure to the host (the runtime logs and counts it): the
 * step's place, the failure's facts from the step result, and what the flow does next.
 */
function reportFailure(site: StepSite, next: string, unhandled: boolean): Action {
  return ({ context }: ActionArgs) => {
    const result = (context.result ?? {}) as Partial<FailureFacts>;
    context.host.reportFailure?.({
      ...site,
      message: typeof result.message === 'string' ? result.message : 'the step failed',
      ...(typeof result.status === 'number' ? { status: result.status } : {}),
      ...(typeof result.operation === 'string' ? { operation: result.operation } : {}),
      ...(typeof result.serverMessage === 'string' ? { serverMessage: result.serverMessage } : {}),
      cause: result.cause ?? 'other',
      next,
      unhandled,
    });
  };
}

/** Where a transition of the flow goes, in words (`goto retry`, `next step`). */
function describeRoute(t: { goto?: string } | undefined, fallthrough: string): string {
  return t?.goto !== undefined ? t.goto : fallthrough;
}

function compileBody(
  body: Body,
  role: 'main' | 'subflow',
  subflows: Map<string, AnyStateMachine>,
  name: string,
  place: (path: Path) => string,
  adaptInput?: (input: unknown) => FlowMachineInput,
): AnyStateMachine {
  const defaultLanguage = body.language ?? 'en';
  const info: FlowCompileInfo = {
    defaultLanguage,
    prompt: (prompt, language) => {
      const media = body.prompts?.[language]?.[prompt];
      return media === undefined ? undefined : Array.isArray(media) ? media : [media];
    },
    subflow: (sub) => {
      const machine = subflows.get(sub);
      if (!machine) throw new Error(`subflow "${sub}" is not defined in this document`);
      return machine;
    },
  };
  const globalOn = body.on ?? {};

  /**
   * Where unhandled failures go from a state: its own `on.error`, else the flow's, else the end.
   * A failure in a state that an error handler led to ends the flow: handling it again could loop
   * without end (a failing step in the handler state itself would re-enter it in the same instant).
   */
  const errorRoutes = (state: StateDocument | undefined, site?: StepSite): TransitionSpec[] => {
    const record = setContext(({ context }) => ({ error: context.result, errorRouted: true }));
    const notInHandler = ({ context }: ActionArgs) => !context.inErrorHandler;
    const report = (next: string, unhandled: boolean) => (site ? [reportFailure(site, next, unhandled)] : []);
    const handlers = (value: FlowTransitions | undefined, whose: string) => {
      const list = transitionList(value);
      return compileTransitions(value, stepResult).map((t, k) => ({
        ...t,
        guard: combine(notInHandler, t.guard),
        actions: [
          ...report(`${whose} on.error: ${describeRoute(list[k], 'stays in the state')}`, true),
          record,
          ...(t.actions ?? []),
        ],
      }));
    };
    return [
      ...handlers(state?.on?.error, "the state's"),
      ...handlers(globalOn.error, "the flow's"),
      {
        target: FINISH,
        actions: [
          ...report('nothing handled it: the flow ends with status failed and hangs up', true),
          record,
          setContext(() => ({ status: 'failed' })),
        ],
      },
    ];
  };
  /** Where the caller's hangup goes: the flow's `on.hangup`, else the end. */
  const hangupRoutes = (
    state: StateDocument | undefined,
    eventOf: (a: ActionArgs) => unknown,
  ): TransitionSpec[] => {
    const mark = setContext(() => ({ hungUp: true, callerLeft: true }));
    return [
      ...compileTransitions(state?.on?.hangup, eventOf),
      ...compileTransitions(globalOn.hangup, eventOf),
      { target: FINISH, actions: [setContext(() => ({ status: 'hungUp' }))] },
    ].map((t) => ({ ...t, actions: [mark, ...(t.actions ?? [])] }));
  };

  const compileState = (stateName: string, state: StateDocument): StateSpec => {
    const steps = state.steps ?? [];
    const children: Record<string, StateSpec> = {};
    const idOf = (i: number) => (i < steps.length ? `${stateName}~${i}` : `${stateName}~next`);
    // `next: <other state>` with nothing else to do: the last step goes straight there instead of
    // through the state's `next` child (one microstep less). Not for a loop back to this state:
    // entering it again must run its entry, which a transition from inside it would not.
    const onlyNext =
      state.final || state.choose ? [] : transitionList(state.next as FlowTransitions | undefined);
    const directNext =
      onlyNext.length === 1 &&
      onlyNext[0]!.goto !== undefined &&
      onlyNext[0]!.goto !== stateName &&
      onlyNext[0]!.if === undefined &&
      onlyNext[0]!.set === undefined
        ? stateTarget(onlyNext[0]!.goto)
        : undefined;
    steps.forEach((step, i) => {
      const [stepName, params] = stepEntries(step);
      const definition = stepDefinition(stepName)!;
      const stepId = idOf(i);
      const nextId = i + 1 < steps.length ? `#${idOf(i + 1)}` : (directNext ?? `#${idOf(i + 1)}`);
      const outcomeStates: Record<string, StateSpec> = {};
      const direct = new Map<string, { target: string; actions: readonly Action[] }>();
      const on = (params.on ?? {}) as Record<string, FlowTransitions>;
      const as = typeof params.as === 'string' ? params.as : undefined;
      const storeResult: Action[] = as ? [setVars(({ context }) => ({ [as]: context.result }))] : [];
      const site: StepSite = {
        flow: name,
        state: stateName,
        step: stepName,
        index: i,
        at: place(['states', stateName, 'steps', i]),
      };
      const routes = definition.routes?.(params as never, []) ?? [];
      for (const outcome of definition.outcomes) {
        const kind: OutcomeKind = outcome.kind;
        const own: TransitionSpec[] = routes
          .filter((r) => r.outcome === outcome.name)
          .flatMap((r) =>
            compileTransitions(r.transitions, stepResult, nextId).map((t) => ({
              ...t,
              guard: combine((a: ActionArgs) => r.matches(a.context.result ?? {}), t.guard),
            })),
          );
        const routed = compileTransitions(
          on[outcome.name],
          stepResult,
          kind === 'success' ? nextId : undefined,
        );
        if (kind === 'failure') {
          // A failure the step routes itself is still reported (at its place), with where it went.
          const list = transitionList(on[outcome.name]);
          own.push(
            ...routed.map((t, k) => ({
              ...t,
              actions: [
                reportFailure(
                  site,
                  `the step's on.${outcome.name}: ${describeRoute(list[k], 'next step')}`,
                  false,
                ),
                ...(t.actions ?? []),
              ],
            })),
          );
        } else own.push(...routed);
        const fallback: readonly TransitionSpec[] =
          kind === 'success'
            ? [{ target: nextId }]
            : kind === 'failure'
              ? [
                  // After the caller hung up (in its hangup handler), a step that needed the
                  // call fails because the call is gone: that is the hang-up, not a failure of
                  // the flow, and the handler goes on with its next step.
                  {
                    guard: ({ context }: ActionArgs) => context.hungUp && context.result?.gone === true,
                    target: nextId,
                  },
                  // A 404 while the call was up means the caller's channel is gone.
                  ...hangupRoutes(state, stepResult).map((t) => ({
                    ...t,
                    guard: combine(
                      ({ context }: ActionArgs) => context.result?.status === 404 && !context.hungUp,
                      t.guard,
                    ),
                  })),
                  ...errorRoutes(state, site),
                ]
              : kind === 'hangup'
                ? hangupRoutes(state, stepResult)
                : [
                    {
                      target: FINISH,
                      actions: [
                        setContext(() => ({
                          status: kind === 'ended' ? 'completed' : 'continued',
                          hungUp: true,
                        })),
                      ],
                    },
                  ];
        // An outcome nobody routes or stores needs no routing state: a success goes straight on to
        // the next step, an end (the flow hung up, or sent the call to the dialplan) straight to
        // the final state, the exit doing the fallback's own actions.
        if (own.length === 0 && storeResult.length === 0) {
          if (kind === 'success') {
            direct.set(outcome.name, { target: nextId, actions: [] });
            continue;
          }
          if (kind === 'ended' || kind === 'continued') {
            direct.set(outcome.name, { target: END, actions: fallback[0]?.actions ?? [] });
            continue;
          }
        }
        outcomeStates[outcome.name] = {
          id: `${stepId}~${outcome.name}`,
          entry: storeResult,
          always: [...own, ...fallback].map((t) => (t.target === undefined ? { ...t, target: nextId } : t)),
        };
      }
      const build: StepBuild = {
        key: `${stateName}-${i}`,
        flow: info,
        exit: (outcome, data, before = []) => {
          if (!definition.outcomes.some((o) => o.name === outcome))
            throw new Error(`step "${stepName}" has no outcome "${outcome}"`);
          // A pass-through outcome goes straight to its target: no routing state to enter and
          // leave (one microstep less per step; the state value never shows it).
          const through = direct.get(outcome);
          return {
            target: through ? through.target : `#${stepId}~${outcome}`,
            actions: [
              ...before,
              setContext((args) => ({
                result: { outcome, step: stepName, state: stateName, ...(data ? data(args) : {}) },
                // The next step starts with empty scratch space (the state's entry empties it for
                // a step entered any other way): one assignment per step less than resetting it
                // on the step's entry.
                step: {},
              })),
              ...(through?.actions ?? []),
            ],
          };
        },
      };
      const condition = params.if as string | boolean | undefined;
      const run = definition.compile(params as never, build);
      // The step's own statechart is the step state itself (one level less for XState to walk
      // on every event than a wrapper with a `run` child); a step with a condition keeps the
      // wrapper, whose `check` decides whether it runs. Outcome states are the flow state's
      // children, reached by id.
      children[`step${i}`] =
        condition === undefined
          ? { ...run, id: stepId }
          : {
              id: stepId,
              initial: 'check',
              states: {
                check: {
                  always: [
                    { guard: (a: ActionArgs) => safeCondition(condition, a.context, a.event), target: 'run' },
                    { target: nextId },
                  ],
                },
                run,
              },
            };
      for (const [outcome, spec] of Object.entries(outcomeStates)) children[`${i}~${outcome}`] = spec;
    });
    children.next = { id: idOf(steps.length), ...nextOf(state) };
    const on: Record<string, TransitionSpec[]> = {};
    for (const [event, value] of Object.entries(state.on ?? {})) {
      if (event === 'error') continue;
      const binding = eventBinding(event);
      const list =
        event === 'hangup'
          ? hangupRoutes(state, serverEvent).slice(0, -1)
          : compileTransitions(value, serverEvent);
      for (const type of binding.types)
        on[type] = [
          ...(on[type] ?? []),
          ...list.map((t) => (binding.guard ? { ...t, guard: combine(binding.guard, t.guard) } : t)),
        ].map((t) =>
          event === 'hangup'
            ? { ...t, guard: combine(({ context }: ActionArgs) => !context.hungUp, t.guard) }
            : t,
        );
    }
    const after: Record<number, TransitionSpec[]> = {};
    for (const [delay, value] of Object.entries(state.after ?? {}))
      after[parseDuration(delay) ?? 0] = compileTransitions(value, () => ({}));
    return {
      initial: steps.length > 0 ? 'step0' : 'next',
      entry: [
        setContext(({ context }) => ({
          result: undefined,
          step: {},
          inErrorHandler: context.errorRouted,
          errorRouted: false,
          state: stateName,
        })),
      ],
      states: children,
      ...(Object.keys(on).length > 0 ? { on } : {}),
      ...(Object.keys(after).length > 0 ? { after } : {}),
      ...(state.description ? { description: state.description } : {}),
    };
  };

  const nextOf = (state: StateDocument): StateSpec => {
    if (state.final) {
      const output = state.output;
      return {
        always: {
          target: FINISH,
          actions: [
            setContext((args) => {
              const scope = scopeOf(args.context, undefined);
              const out: Record<string, unknown> = {};
              for (const [k, v] of Object.entries(output ?? {})) {
                try {
                  out[k] = resolveValue(v, scope);
                } catch (e) {
                  args.context.host.log?.warn(
                    { output: k, error: (e as Error).message },
                    'flow output failed',
                  );
                }
              }
              return { output: out, status: 'completed' };
            }),
          ],
        },
      };
    }
    if (state.choose)
      return {
        always: state.choose.map(
          (c) =>
            compileTransitions(
              {
                goto: c.goto,
                ...(c.when !== undefined ? { if: c.when } : {}),
                ...(c.set ? { set: c.set } : {}),
              },
              () => undefined,
            )[0]!,
        ),
      };
    if (state.next !== undefined)
      return { always: compileTransitions(state.next as FlowTransitions, () => undefined) };
    return {}; // waits for `on` events and `after` timers
  };

  const states: Record<string, StateSpec> = {};
  for (const [stateName, state] of Object.entries(body.states))
    states[stateName] = compileState(stateName, state as StateDocument);
  states.$finish = {
    always: [{ guard: ({ context }: ActionArgs) => role === 'subflow' || context.hungUp, target: END }],
    // The main flow ends with the call: hang it up if it is still here.
    effect: effect(
      ({ context }) =>
        context.host.ari.channels.hangup({ channelId: context.call.channelId, reason: 'normal' }),
      {
        onDone: { target: END, actions: [setContext(() => ({ hungUp: true }))] },
        onError: { target: END, actions: [setContext(() => ({ hungUp: true }))] },
      },
    ),
  };
  states.$end = { type: 'final' };

  // Flow-level handlers apply in every state (states' own handlers win, being deeper).
  const rootOn: Record<string, TransitionSpec[]> = {};
  // Once the flow is ending (status decided, hanging the call up in $finish), the call's own
  // hangup events are the flow's doing: they must not turn a failed or completed run into hungUp.
  const own = ({ context, event }: ActionArgs) =>
    !context.hungUp &&
    context.status === 'running' &&
    ((event.channel as { id?: string } | undefined)?.id ?? (event.channelId as string | undefined)) ===
      context.call.channelId;
  for (const type of [...flowEvents.hangup.ari, 'call.gone'])
    rootOn[type] = hangupRoutes(undefined, serverEvent).map((t) => ({ ...t, guard: combine(own, t.guard) }));
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

  const lowered = lowerEffects(states);
  // A restored call's engine takes up what was under way when its snapshot was written.
  rootOn[RESUMED_EVENT] = [{ actions: [lowered.resume] }];
  const config = {
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
  };
  return createMachine(config as never);
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

function combine(
  a: (args: ActionArgs) => boolean,
  b: ((args: ActionArgs) => boolean) | undefined,
): (args: ActionArgs) => boolean {
  return b ? (args) => a(args) && b(args) : a;
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
