import type { ParamIssue } from '../description/validate.ts';
import { validateParams } from '../description/validate.ts';
import type { OperationPlan } from './operationPlan.ts';

/**
 * Every problem with the parameters of a call, each with a message saying how to fix it: what
 * `validateParams` finds, plus path parameters without a value, which the client refuses even
 * where the description calls them optional (the endpoints resource documents tech and resource
 * that way): the path cannot be built without them.
 *
 * @example
 * findParamIssues(operationPlan(findOperation('endpoints', 'get')!), { tech: 'PJSIP' });
 * // [{ param: 'resource', kind: 'missing', message: "endpoints.get: path parameter 'resource' is missing; ..." }]
 */
export function findParamIssues(
  plan: OperationPlan,
  params: Readonly<Record<string, unknown>>,
): ParamIssue[] {
  const { op, key } = plan;
  const issues = validateParams(op, params);
  for (const name of plan.optionalPathParams) {
    const value = params[name];
    if (value !== undefined && value !== null && value !== '') continue;
    issues.push({
      param: name,
      kind: 'missing',
      message: `${key}: path parameter '${name}' is missing; it is part of ${op.method} ${op.path}`,
    });
  }
  return issues;
}
