import type { ExpressionScope } from '../expr/Expression.ts';
import type { EffectRunner, EffectTarget } from '@ringflow/runtime/engine';
import { ErrorCode, isCallGone } from '@ringflow/client/interface';
import { evaluateCondition, evaluateExpression, ExpressionError } from '../expr/Expression.ts';
import type { ExprValue, Value } from '../schema/s.ts';
import type { FlowCall, FlowHost } from './FlowHost.ts';

/** The context of a compiled flow machine. */
export interface FlowContext {
  readonly host: FlowHost;
  /** Runs the machine's effects and reports their results to it (one per machine instance). */
  readonly effects: EffectRunner;
  readonly call: FlowCall;
  readonly input: Readonly<Record<string, unknown>>;
  readonly vars: Readonly<Record<string, unknown>>;
  /** The result of the step that just ended (the `event` root while its outcome is routed). */
  readonly result: Readonly<Record<string, unknown>> | undefined;
  /** Scratch space of the running step (ids, digits, counters); reset when a step starts. */
  readonly step: Readonly<Record<string, unknown>>;
  /** The bridge this call is in (conference or dial), if any. */
  readonly bridgeId: string | undefined;
  /** The room this call joined ends when it leaves (`conference` with `closeOnLeave: true`). */
  readonly roomClosesOnLeave?: boolean;
  /** The live bridge recording this call started last (`bridgeRecord`), which `stop: true` stops. */
  readonly bridgeRecording?: string | undefined;
  /** Set once the caller's channel is gone: channel operations are no longer attempted. */
  readonly hungUp: boolean;
  /** The caller hung up (or the call left the application) before the flow ended it. */
  readonly callerLeft: boolean;
  /** The final state's output (subflows hand it to their caller). */
  readonly output: Readonly<Record<string, unknown>> | undefined;
  /** The last unhandled failure. */
  readonly error: Readonly<Record<string, unknown>> | undefined;
  /** An error handler route was just taken (the next state entered is a handler). */
  readonly errorRouted: boolean;
  /** This state was entered through an error handler: a failure here ends the flow. */
  readonly inErrorHandler: boolean;
  /** The flow state the call is in (or was last in, once the flow ended). */
  readonly state: string;
  /** How the run is ending, set on the way to the end. */
  readonly status: 'running' | 'completed' | 'hungUp' | 'continued' | 'transferred' | 'failed';
}

/** Any event the machine receives: ARI events by their `type`, and XState's own. */
export interface AnyFlowEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface ActionArgs {
  readonly context: FlowContext;
  readonly event: AnyFlowEvent;
  /** The running machine (XState's `self`): the engine reports effects and timers to it. */
  readonly self: EffectTarget;
}

/** The roots an expression sees; `event` is the routed step result, else the current event. */
export function scopeOf(context: FlowContext, event: unknown): ExpressionScope {
  return {
    input: context.input,
    vars: context.vars,
    // The expression language reads the call's fields by name; FlowCall is an interface, not a record.
    call: context.call as unknown as Record<string, unknown>,
    event,
    now: context.host.clock.now(),
  };
}

function isExpr(value: unknown): value is ExprValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as ExprValue).expr === 'string'
  );
}

/**
 * Resolves a field that is a literal or `{ expr }`. Throws ExpressionError when the expression fails.
 * @example resolveValue({ expr: "'PJSIP/' + vars.ext" }, scope) // 'PJSIP/200'
 */
export function resolveValue<T>(value: Value<T>, scope: ExpressionScope): T {
  return (isExpr(value) ? evaluateExpression(value.expr, scope) : value) as T;
}

/**
 * Resolves a template value (see `s.template`): each `{ expr }` in it, at any depth, evaluated.
 * @example resolveTemplate({ caller: { expr: 'call.caller.number' }, source: 'ivr' }, scope)
 */
export function resolveTemplate(value: unknown, scope: ExpressionScope): unknown {
  // `{ expr }` alone is an expression (as the checker finds them); with other fields, data.
  if (isExpr(value) && Object.keys(value).length === 1) return evaluateExpression(value.expr, scope);
  if (Array.isArray(value)) return value.map((item) => resolveTemplate(item, scope));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = resolveTemplate(item, scope);
  return out;
}

/** Resolves an optional field. */
export function resolveOptional<T>(value: Value<T> | undefined, scope: ExpressionScope): T | undefined {
  return value === undefined ? undefined : resolveValue(value, scope);
}

/** A condition that fails while running counts as false, and the problem is logged, not thrown. */
export function safeCondition(condition: string | boolean, context: FlowContext, event: unknown): boolean {
  try {
    return evaluateCondition(condition, scopeOf(context, event));
  } catch (e) {
    context.host.log?.warn(
      { condition, error: (e as Error).message },
      'flow condition failed; treated as false',
    );
    return false;
  }
}

/** What a failed step's result says about the failure (`event` in `on.failed` / `on.error`). */
export interface FailureFacts {
  readonly message: string;
  /** The HTTP status, when the server answered. */
  readonly status?: number;
  /** The operation that failed (`bridges.createWithId`), when it was a request. */
  readonly operation?: string;
  /** The server's own explanation, when it gave one. */
  readonly serverMessage?: string;
  /** refused (the server said no), timeout, network, expression, or other. */
  readonly cause: 'refused' | 'timeout' | 'network' | 'expression' | 'other';
  /** The request failed because the call is gone (the caller hung up): not the flow's failure. */
  readonly gone?: boolean;
}

/** Pulls the facts out of a failed REST call, a time-out, an expression that failed, or any other error. */
export function describeFailure(error: unknown): FailureFacts {
  const err = error as
    | {
        message?: unknown;
        status?: unknown;
        statusCode?: unknown;
        operation?: unknown;
        serverMessage?: unknown;
        code?: unknown;
      }
    | undefined;
  const status =
    typeof err?.status === 'number'
      ? err.status
      : typeof err?.statusCode === 'number'
        ? err.statusCode
        : undefined;
  const message = typeof err?.message === 'string' ? err.message : String(error);
  const cause: FailureFacts['cause'] =
    error instanceof ExpressionError
      ? 'expression'
      : err?.code === ErrorCode.TIMEOUT
        ? 'timeout'
        : err?.code === ErrorCode.NETWORK
          ? 'network'
          : status !== undefined && status > 0
            ? 'refused'
            : 'other';
  return {
    message,
    ...(status !== undefined && status > 0 ? { status } : {}),
    ...(typeof err?.operation === 'string' ? { operation: err.operation } : {}),
    ...(typeof err?.serverMessage === 'string' && err.serverMessage !== ''
      ? { serverMessage: err.serverMessage }
      : {}),
    cause,
    ...(isCallGone(error) ? { gone: true } : {}),
  };
}
