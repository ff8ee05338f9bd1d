import type { StateDocument } from '../model/flowSchema.ts';
import { type FlowTransitions, transitionList } from '../model/transition.ts';
import type { StepDefinition } from '../steps/StepDefinition.ts';
import type { FlowCompileInfo, OutcomeKind, StepBuild } from '../steps/StepDefinition.ts';
import { setContext, setVars } from './effects.ts';
import { type FailureRouting, describeRoute, reportFailure, type StepSite } from './failureRouting.ts';
import { type ActionArgs, type FlowContext, safeCondition } from './FlowContext.ts';
import { combine, compileTransitions, END, FINISH, ROOT, stepResult } from './flowTransitions.ts';
import type { Action, StateSpec, TransitionSpec } from './StateSpec.ts';

/** One step of a flow state, as the state compiler hands it over. */
export interface StepToCompile {
  readonly stateName: string;
  readonly state: StateDocument;
  readonly index: number;
  readonly name: string;
  readonly params: Record<string, unknown>;
  // The registry erases each step's parameter type: the validator checked them against it.
  readonly definition: StepDefinition<unknown>;
  /** The step's own id (`<state>~<index>`). */
  readonly id: string;
  /** Where the flow goes after it (the next step, the state's `next`, or straight to a state). */
  readonly nextId: string;
  readonly site: StepSite;
}

/** A compiled step: its statechart, and the states that route its outcomes (children of its flow state). */
export interface CompiledStep {
  readonly state: StateSpec;
  readonly outcomeStates: Readonly<Record<string, StateSpec>>;
}

/**
 * Compiles one step: the step's own statechart (from its definition) and, for each outcome that
 * needs routing, a state that routes it (the step's `on`, its routes, then the outcome kind's
 * fallback, see {@link fallbackRoutes}). An outcome nobody routes or stores needs no routing
 * state: a success goes straight on to the next step, an end straight to the final state.
 */
export function compileStep(
  step: StepToCompile,
  info: FlowCompileInfo,
  failures: FailureRouting,
): CompiledStep {
  const { definition, params, nextId, site, id: stepId } = step;
  const outcomeStates: Record<string, StateSpec> = {};
  const direct = new Map<string, DirectRoute>();
  const on = (params.on ?? {}) as Record<string, FlowTransitions>;
  const as = typeof params.as === 'string' ? params.as : undefined;
  const storeResult: Action[] = as ? [setVars(({ context }) => ({ [as]: context.result }))] : [];
  const routes = definition.routes?.(params, []) ?? [];
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
    const routed = compileTransitions(on[outcome.name], stepResult, kind === 'success' ? nextId : undefined);
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
    const fallback = fallbackRoutes(kind, step, failures);
    if (own.length === 0 && storeResult.length === 0) {
      if (kind === 'success') {
        direct.set(outcome.name, { target: nextId });
        continue;
      }
      if (kind === 'ended' || kind === 'continued') {
        direct.set(outcome.name, { target: END, ending: endingOf(kind) });
        continue;
      }
    }
    outcomeStates[`${step.index}~${outcome.name}`] = {
      id: `${stepId}~${outcome.name}`,
      entry: storeResult,
      always: [...own, ...fallback].map((t) => (t.target === undefined ? { ...t, target: nextId } : t)),
    };
  }
  const build: StepBuild = {
    key: `${step.stateName}-${step.index}`,
    flow: info,
    exit: (outcome, data, before = []) => {
      if (!definition.outcomes.some((o) => o.name === outcome))
        throw new Error(`step "${step.name}" has no outcome "${outcome}"`);
      // A pass-through outcome goes straight to its target: no routing state to enter and
      // leave (one microstep less per step; the state value never shows it).
      const through = direct.get(outcome);
      const recorded = (args: ActionArgs): Partial<FlowContext> => ({
        result: { outcome, step: step.name, state: step.stateName, ...(data ? data(args) : {}) },
        // The next step starts with empty scratch space (the state's entry empties it for
        // a step entered any other way): one assignment per step less than resetting it
        // on the step's entry.
        step: {},
      });
      const ending = through?.ending;
      // Each assignment is a whole XState snapshot: the result and how the flow ends are one.
      const record = ending
        ? setContext((args) => ({ ...recorded(args), ...ending(args) }))
        : setContext(recorded);
      return {
        target: through ? through.target : `#${stepId}~${outcome}`,
        // Straight into another flow state, whose entry empties result and scratch space in the
        // same microstep: nobody could read them, so they are not written (a snapshot less).
        actions: through && entersFlowState(through.target) ? [...before] : [...before, record],
      };
    },
  };
  const condition = params.if as string | boolean | undefined;
  const run = definition.compile(params, build);
  // The step's own statechart is the step state itself (one level less for XState to walk on
  // every event than a wrapper with a `run` child); a step with a condition keeps the wrapper,
  // whose `check` decides whether it runs. Outcome states are the flow state's children,
  // reached by id.
  const state: StateSpec =
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
  return { state, outcomeStates };
}

/**
 * Where an outcome nobody routes or stores goes straight to, without a routing state; `ending`: the
 * context it sets on the way (how the flow ends, for an end).
 */
interface DirectRoute {
  readonly target: string;
  readonly ending?: (args: ActionArgs) => Partial<FlowContext>;
}

/** A flow state's own id (`#flow.<state>`), not the flow's end (`$finish`, `$end`) nor a step. */
function entersFlowState(target: string): boolean {
  return target.startsWith(`#${ROOT}.`) && target !== FINISH && target !== END;
}

/** How the flow ends after an outcome of this kind: a step that handed the caller over says so itself. */
function endingOf(kind: 'ended' | 'continued') {
  return ({ context }: ActionArgs): Partial<FlowContext> => ({
    status: kind === 'ended' ? 'completed' : context.status === 'transferred' ? 'transferred' : 'continued',
    hungUp: true,
  });
}

/** What an outcome of this kind does when nothing in the step routes it (see `OutcomeKind`). */
function fallbackRoutes(kind: OutcomeKind, step: StepToCompile, failures: FailureRouting): TransitionSpec[] {
  switch (kind) {
    case 'success':
      return [{ target: step.nextId }];
    case 'failure':
      return [
        // After the caller hung up (in its hangup handler), a step that needed the call fails
        // because the call is gone: that is the hang-up, not a failure of the flow, and the
        // handler goes on with its next step.
        {
          guard: ({ context }: ActionArgs) => context.hungUp && context.result?.gone === true,
          target: step.nextId,
        },
        // A 404 while the call was up means the caller's channel is gone.
        ...failures.hangupRoutes(step.state, stepResult).map((t) => ({
          ...t,
          guard: combine(
            ({ context }: ActionArgs) => context.result?.status === 404 && !context.hungUp,
            t.guard,
          ),
        })),
        ...failures.errorRoutes(step.state, step.site),
      ];
    case 'hangup':
      return failures.hangupRoutes(step.state, stepResult);
    case 'ended':
    case 'continued':
      return [{ target: FINISH, actions: [setContext(endingOf(kind))] }];
  }
}
