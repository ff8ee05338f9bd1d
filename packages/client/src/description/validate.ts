import type { OperationSpec, ParamSpec } from './spec.ts';

/** One problem with the parameters of a request. */
export interface ParamIssue {
  readonly param: string;
  readonly kind: 'missing' | 'enum' | 'type' | 'unknown';
  /** Says what was expected and how to fix it. */
  readonly message: string;
  readonly allowed?: readonly string[];
}

function describe(op: OperationSpec): string {
  return `${op.resource}.${op.name}`;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

/** The individual values of a parameter: a list for `allowMultiple` (array or comma separated), else one. */
export function paramValues(spec: ParamSpec, value: unknown): unknown[] {
  if (spec.allowMultiple && Array.isArray(value)) return value;
  if (spec.allowMultiple && typeof value === 'string') return value.split(',');
  return [value];
}

function checkType(op: OperationSpec, spec: ParamSpec, value: unknown): ParamIssue | undefined {
  const bad = (expected: string): ParamIssue => ({
    param: spec.name,
    kind: 'type',
    message: `${describe(op)}: parameter '${spec.name}' must be ${expected}, got ${JSON.stringify(value)}`,
  });
  switch (spec.type) {
    case 'string':
      return typeof value === 'string' ? undefined : bad('a string');
    case 'int':
    case 'long':
      return typeof value === 'number' && Number.isInteger(value) ? undefined : bad('an integer');
    case 'double':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : bad('a number');
    case 'boolean':
      return typeof value === 'boolean' ? undefined : bad('true or false');
    case 'containers':
      if (spec.name === 'fields')
        return Array.isArray(value) ? undefined : bad('a list of {attribute, value}');
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? undefined
        : bad('an object');
    case 'object':
      return typeof value === 'object' && value !== null ? undefined : bad('a JSON object');
  }
}

/**
 * Checks typed parameters against an operation before they are sent: required parameters are
 * present, enum values are allowed, values have the documented type and no unknown parameter is
 * given. Returns every problem found (an empty list when the parameters are valid).
 *
 * @example
 * validateParams(findOperation('channels', 'mute')!, { channelId: 'c1', direction: 'sideways' })
 * // [{ param: 'direction', kind: 'enum', allowed: ['both', 'in', 'out'], message: "..." }]
 */
export function validateParams(op: OperationSpec, params: Readonly<Record<string, unknown>>): ParamIssue[] {
  const issues: ParamIssue[] = [];
  const known = new Set(op.params.map((p) => p.name));
  for (const spec of op.params) {
    const value = params[spec.name];
    if (isEmpty(value)) {
      if (spec.required) {
        issues.push({
          param: spec.name,
          kind: 'missing',
          message: `${describe(op)}: required parameter '${spec.name}' (${spec.in}) is missing`,
        });
      }
      continue;
    }
    for (const one of paramValues(spec, value)) {
      const typeIssue = checkType(op, spec, one);
      if (typeIssue) {
        issues.push(typeIssue);
        break;
      }
      if (spec.enum && !spec.enum.includes(one as string)) {
        issues.push({
          param: spec.name,
          kind: 'enum',
          allowed: spec.enum,
          message: `${describe(op)}: parameter '${spec.name}' must be one of ${spec.enum.join(', ')}; got ${JSON.stringify(one)}`,
        });
        break;
      }
    }
  }
  for (const name of Object.keys(params)) {
    if (!known.has(name) && params[name] !== undefined) {
      issues.push({
        param: name,
        kind: 'unknown',
        message: `${describe(op)}: unknown parameter '${name}'; known parameters: ${[...known].join(', ') || '(none)'}`,
      });
    }
  }
  return issues;
}

/**
 * Turns the string form of a query or path parameter into its typed value, as a server reads it.
 * Returns `undefined` when the text is not a value of the type (`'abc'` for an int).
 */
export function parseParamText(spec: ParamSpec, text: string): unknown {
  switch (spec.type) {
    case 'int':
    case 'long': {
      const n = Number.parseInt(text, 10);
      return Number.isNaN(n) ? undefined : n;
    }
    case 'double': {
      const n = Number.parseFloat(text);
      return Number.isNaN(n) ? undefined : n;
    }
    case 'boolean':
      return /^(true|yes|1|on)$/i.test(text) ? true : /^(false|no|0|off)$/i.test(text) ? false : undefined;
    default:
      return spec.allowMultiple ? text.split(',') : text;
  }
}
