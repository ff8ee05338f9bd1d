import { operationKey } from '../description/index.ts';
import type { OperationSpec, ParamSpec } from '../description/spec.ts';
import { interpretReply } from './interpretReply.ts';
import type { TransportRequest, TransportResponse } from './RestTransport.ts';

/**
 * What the REST client works out once per operation instead of once per request: its key, its
 * parameters by name, and its path template split into literal text and parameter names for
 * either server-level segment.
 */
export interface OperationPlan {
  readonly op: OperationSpec;
  /** `resource.name`: `channels.answer`. */
  readonly key: string;
  /** Every parameter of the operation by name. */
  readonly params: ReadonlyMap<string, ParamSpec>;
  /**
   * Path parameters the description calls optional (the endpoints resource documents tech and
   * resource that way): the path cannot be built without them all the same.
   */
  readonly optionalPathParams: readonly string[];
  /** Literal text around the path parameters: always one more than `pathParams`. */
  readonly literals: readonly string[];
  /** `literals` with `/asterisk` replaced by `/core`, for servers using the specification's name. */
  readonly coreLiterals: readonly string[];
  /** Path parameter names in the order they appear in the path. */
  readonly pathParams: readonly string[];
  /** The operation's result from a reply ({@link interpretReply}); throws for error statuses. */
  readonly interpret: (request: TransportRequest, reply: TransportResponse) => unknown;
}

const plans = new WeakMap<OperationSpec, OperationPlan>();

function compile(op: OperationSpec): OperationPlan {
  const literals: string[] = [];
  const pathParams: string[] = [];
  const placeholder = /\{(\w+)\}/g;
  let from = 0;
  for (let match = placeholder.exec(op.path); match; match = placeholder.exec(op.path)) {
    literals.push(op.path.slice(from, match.index));
    pathParams.push(match[1] as string);
    from = match.index + match[0].length;
  }
  literals.push(op.path.slice(from));
  const first = literals[0] as string;
  const coreLiterals = [first.replace(/^\/asterisk(?=\/|$)/, '/core'), ...literals.slice(1)];
  const params = new Map(op.params.map((p) => [p.name, p]));
  return {
    op,
    key: operationKey(op.resource, op.name),
    params,
    optionalPathParams: op.params.filter((p) => p.in === 'path' && !p.required).map((p) => p.name),
    literals,
    coreLiterals,
    pathParams,
    interpret: (request, reply) => interpretReply(op, request, reply),
  };
}

/**
 * The plan of an operation, compiled on first use and kept as long as the operation's spec.
 *
 * @example
 * const plan = operationPlan(findOperation('channels', 'play')!);
 * plan.literals;   // ['/channels/', '/play']
 * plan.pathParams; // ['channelId']
 */
export function operationPlan(op: OperationSpec): OperationPlan {
  let plan = plans.get(op);
  if (!plan) {
    plan = compile(op);
    plans.set(op, plan);
  }
  return plan;
}
