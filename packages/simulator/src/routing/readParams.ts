import { type OperationSpec, type ParamSpec, paramValues, parseParamText } from '@ringflow/client';
import type { SimRequest } from '../transport.ts';
import { operationPrechecks, operationRules, type Refusal } from './operationRules.ts';

/** Typed parameters of one request, by name; absent parameters carry their documented default. */
export type Params = Readonly<Record<string, unknown>>;

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

/** A value sent as a JSON body key gets the parameter's type, as the real server reads it. */
function fromJson(spec: ParamSpec, value: unknown): unknown {
  if (typeof value === 'string') return parseParamText(spec, value);
  if (spec.allowMultiple && !Array.isArray(value) && value !== undefined && value !== null) return [value];
  if (spec.type === 'string' && (typeof value === 'number' || typeof value === 'boolean'))
    return String(value);
  return value;
}

function readOne(
  spec: ParamSpec,
  request: SimRequest,
  pathParams: Readonly<Record<string, string>>,
): unknown {
  const body =
    typeof request.body === 'object' && request.body !== null
      ? (request.body as Record<string, unknown>)
      : undefined;
  switch (spec.in) {
    case 'path':
      return pathParams[spec.name];
    case 'query': {
      const text = request.query[spec.name];
      if (text !== undefined) return parseParamText(spec, text);
      // The real server also accepts query parameters as keys of a JSON body.
      return body && spec.name in body ? fromJson(spec, body[spec.name]) : undefined;
    }
    case 'body':
      // An `object` body parameter is the whole body (the event filter); others are one key of it.
      if (spec.type === 'object') return request.body;
      return body?.[spec.name];
  }
}

function check(op: OperationSpec, spec: ParamSpec, value: unknown): Refusal | undefined {
  const rule = operationRules[`${op.resource}.${op.name}`]?.[spec.name];
  if (isEmpty(value)) {
    if (!spec.required || rule?.missing === 'accept') return undefined;
    return (
      rule?.missing ?? [
        400,
        `Parameter '${spec.name}' is required by ${op.method} ${op.path}; add it to the query`,
      ]
    );
  }
  if (!spec.enum || rule?.invalid === 'accept') return undefined;
  for (const one of paramValues(spec, value)) {
    if (typeof one === 'string' && !spec.enum.includes(one)) {
      return rule?.invalid
        ? rule.invalid(one)
        : [400, `Parameter '${spec.name}' must be one of ${spec.enum.join(', ')}; got '${one}'`];
    }
  }
  return undefined;
}

/**
 * Reads the parameters of a request for an operation: path segments, query text (typed by the
 * description), JSON body keys, and defaults. Refuses a missing required parameter or a value
 * outside its enum the way the real server does (see operationRules), else with a message that
 * names the parameter and what is expected.
 *
 * @example
 * readParams(findOperation('channels', 'mute')!, { channelId: 'c1' }, { method: 'POST', path: '/channels/c1/mute', query: { direction: 'in' } })
 * // { params: { channelId: 'c1', direction: 'in' } }
 */
export function readParams(
  op: OperationSpec,
  pathParams: Readonly<Record<string, string>>,
  request: SimRequest,
): { params: Params } | { refusal: Refusal } {
  const precheck = operationPrechecks[`${op.resource}.${op.name}`];
  if (precheck) {
    const refusal = precheck((name) => {
      const spec = op.params.find((p) => p.name === name);
      return spec ? readOne(spec, request, pathParams) : undefined;
    });
    if (refusal) return { refusal };
  }
  const params: Record<string, unknown> = {};
  for (const spec of op.params) {
    let value = readOne(spec, request, pathParams);
    if (Array.isArray(value)) value = value.filter((v) => v !== '');
    const refusal = check(op, spec, value);
    if (refusal) return { refusal };
    if (isEmpty(value) && spec.default !== undefined) value = spec.default;
    if (value !== undefined) params[spec.name] = value;
  }
  return { params };
}
