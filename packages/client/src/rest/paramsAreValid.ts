import type { ParamSpec } from '../description/spec.ts';
import type { OperationPlan } from './operationPlan.ts';

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

function hasType(spec: ParamSpec, value: unknown): boolean {
  switch (spec.type) {
    case 'string':
      return typeof value === 'string';
    case 'int':
    case 'long':
      return typeof value === 'number' && Number.isInteger(value);
    case 'double':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'containers':
      if (spec.name === 'fields') return Array.isArray(value);
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null;
  }
}

function isAllowed(spec: ParamSpec, value: unknown): boolean {
  return hasType(spec, value) && (spec.enum === undefined || spec.enum.includes(value as string));
}

function valueIsValid(spec: ParamSpec, value: unknown): boolean {
  if (spec.allowMultiple && Array.isArray(value)) {
    for (const one of value) if (!isAllowed(spec, one)) return false;
    return true;
  }
  if (spec.allowMultiple && typeof value === 'string' && value.includes(',')) {
    for (const one of value.split(',')) if (!isAllowed(spec, one)) return false;
    return true;
  }
  return isAllowed(spec, value);
}

/**
 * The quick answer to "would this call pass validation?", with no allocation on the way: true
 * exactly when `validateParams` finds no issue and no path parameter lacks a value (the client's
 * own rule). The client runs the full `validateParams`, which explains each problem, only when
 * this says false.
 *
 * @example
 * paramsAreValid(operationPlan(findOperation('channels', 'answer')!), { channelId: 'c1' }); // true
 * paramsAreValid(operationPlan(findOperation('channels', 'mute')!), { channelId: 'c1', direction: 'up' }); // false
 */
export function paramsAreValid(plan: OperationPlan, params: Readonly<Record<string, unknown>>): boolean {
  for (const spec of plan.op.params) {
    const value = params[spec.name];
    if (isEmpty(value)) {
      if (spec.required) return false;
      // The client refuses a path parameter without a value, even one documented as optional.
      if (spec.in === 'path' && !Array.isArray(value)) return false;
      continue;
    }
    if (!valueIsValid(spec, value)) return false;
  }
  for (const name in params) {
    if (!Object.hasOwn(params, name)) continue;
    if (params[name] !== undefined && !plan.params.has(name)) return false;
  }
  return true;
}
