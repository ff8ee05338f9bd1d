import type { StepFailure } from '@ringflow/runtime';
import type { FlowTransitions } from '../model/transition.ts';
import { transitionList } from '../model/transition.ts';
import type { StateDocument } from '../model/flowSchema.ts';
import { setContext } from './effects.ts';
import type { ActionArgs, FailureFacts } from './FlowContext.ts';
import { combine, compileTransitions, type EventOf, FINISH, stepResult } from './flowTransitions.ts';
import type { Action, TransitionSpec } from './StateSpec.ts';

/** Which step failed, known when the flow is compiled (the rest of a report comes at run time). */
export type StepSite = Pick<StepFailure, 'flow' | 'state' | 'step' | 'index' | 'at'>;

/**
 * The action that reports a step failure to the host (the runtime logs and counts it): the
 * step's place, the failure's facts from the step result, and what the flow does next.
 */
export function reportFailure(site: StepSite, next: string, unhandled: boolean): Action {
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
export function describeRoute(t: { goto?: string } | undefined, fallthrough: string): string {
  return t?.goto !== undefined ? t.goto : fallthrough;
}

/**
 * Where failures and the caller's hangup go, from any state of one flow body: the state's own
 * handlers first, then the flow's (`on.error`, `on.hangup`), then the end.
 */
export class FailureRouting {
  constructor(private readonly flowOn: NonNullable<StateDocument['on']>) {}

  /**
   * Where unhandled failures go from a state: its own `on.error`, else the flow's, else the end.
   * A failure in a state that an error handler led to ends the flow: handling it again could loop
   * without end (a failing step in the handler state itself would re-enter it in the same instant).
   */
  errorRoutes(state: StateDocument | undefined, site?: StepSite): TransitionSpec[] {
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
      ...handlers(this.flowOn.error, "the flow's"),
      {
        target: FINISH,
        actions: [
          ...report('nothing handled it: the flow ends with status failed and hangs up', true),
          record,
          setContext(() => ({ status: 'failed' })),
        ],
      },
    ];
  }

  /** Where the caller's hangup goes: the state's `on.hangup`, else the flow's, else the end. */
  hangupRoutes(state: StateDocument | undefined, eventOf: EventOf): TransitionSpec[] {
    const mark = setContext(() => ({ hungUp: true, callerLeft: true }));
    return [
      ...compileTransitions(state?.on?.hangup, eventOf),
      ...compileTransitions(this.flowOn.hangup, eventOf),
      { target: FINISH, actions: [setContext(() => ({ status: 'hungUp' }))] },
    ].map((t) => ({ ...t, actions: [mark, ...(t.actions ?? [])] }));
  }
}
