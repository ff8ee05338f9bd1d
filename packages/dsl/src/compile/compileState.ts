import type { StateDocument } from '../model/flowSchema.ts';
import { type FlowTransitions, transitionList } from '../model/transition.ts';
import { parseDuration } from '../schema/s.ts';
import { stepDefinition } from '../steps/index.ts';
import type { FlowCompileInfo } from '../steps/StepDefinition.ts';
import type { Path } from '../validate/Diagnostic.ts';
import { compileStep } from './compileStep.ts';
import { setContext } from './effects.ts';
import type { FailureRouting } from './failureRouting.ts';
import { type ActionArgs, resolveValue, scopeOf } from './FlowContext.ts';
import {
  combine,
  compileTransitions,
  eventBinding,
  FINISH,
  serverEvent,
  stateTarget,
} from './flowTransitions.ts';
import type { StateSpec, TransitionSpec } from './StateSpec.ts';

/** What compiling one flow state needs to know about the body it belongs to. */
export interface StateCompileContext {
  /** The flow's (or subflow's) name, for failure reports. */
  readonly flowName: string;
  readonly info: FlowCompileInfo;
  readonly failures: FailureRouting;
  /** `file:line:col` of a path in the document. */
  readonly place: (path: Path) => string;
}

function stepEntries(step: unknown): [string, Record<string, unknown>] {
  if (typeof step === 'string') return [step, {}];
  const [name, body] = Object.entries(step as object)[0]!;
  return [name, (body ?? {}) as Record<string, unknown>];
}

/**
 * Where the last step of a state goes: `next: <other state>` with nothing else to do goes straight
 * there instead of through the state's `next` child (one microstep less). Not for a loop back to
 * the state itself: entering it again must run its entry, which a transition from inside would not.
 */
function directNext(stateName: string, state: StateDocument): string | undefined {
  if (state.final || state.choose) return undefined;
  const only = transitionList(state.next as FlowTransitions | undefined);
  const t = only[0];
  if (
    only.length !== 1 ||
    t?.goto === undefined ||
    t.goto === stateName ||
    t.if !== undefined ||
    t.set !== undefined
  )
    return undefined;
  return stateTarget(t.goto);
}

/**
 * Compiles one flow state into a compound state: its steps in order (each a small statechart,
 * see {@link compileStep}) and the routing of their outcomes, then its `next` child (see
 * {@link nextOf}); its `on` handlers and `after` timers on the state itself.
 */
export function compileState(stateName: string, state: StateDocument, body: StateCompileContext): StateSpec {
  const steps = state.steps ?? [];
  const children: Record<string, StateSpec> = {};
  const idOf = (i: number) => (i < steps.length ? `${stateName}~${i}` : `${stateName}~next`);
  const lastNext = directNext(stateName, state);
  steps.forEach((step, i) => {
    const [name, params] = stepEntries(step);
    const compiled = compileStep(
      {
        stateName,
        state,
        index: i,
        name,
        params,
        definition: stepDefinition(name)!,
        id: idOf(i),
        nextId: i + 1 < steps.length ? `#${idOf(i + 1)}` : (lastNext ?? `#${idOf(i + 1)}`),
        site: {
          flow: body.flowName,
          state: stateName,
          step: name,
          index: i,
          at: body.place(['states', stateName, 'steps', i]),
        },
      },
      body.info,
      body.failures,
    );
    children[`step${i}`] = compiled.state;
    Object.assign(children, compiled.outcomeStates);
  });
  children.next = { id: idOf(steps.length), ...nextOf(state) };
  const on: Record<string, TransitionSpec[]> = {};
  for (const [event, value] of Object.entries(state.on ?? {})) {
    if (event === 'error') continue;
    const binding = eventBinding(event);
    const list =
      event === 'hangup'
        ? body.failures.hangupRoutes(state, serverEvent).slice(0, -1)
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
}

/**
 * What a state does once its steps are done: a final state ends the flow with its `output`;
 * `choose` takes the first branch whose condition holds; `next` goes on; without either, the
 * state waits for its `on` events and `after` timers.
 */
function nextOf(state: StateDocument): StateSpec {
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
                args.context.host.log?.warn({ output: k, error: (e as Error).message }, 'flow output failed');
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
  return {};
}
