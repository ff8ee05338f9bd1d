import type { OperationSpec } from '../description/spec.ts';
import { operationPlan } from './operationPlan.ts';
import type { OperationPlan } from './operationPlan.ts';
import type { TransportRequest } from './RestTransport.ts';
import type { ServerSegment } from './ServerSegment.ts';

/**
 * Percent-encodes one path parameter. Like `encodeURIComponent`, except that `:` and `@` stay as
 * they are: both are legal in a path segment (RFC 3986 `pchar`), and that is how real clients send
 * device names (`/deviceStates/Stasis:dev1`). A `/` inside a value is encoded (`sub%2Ft2`): the
 * server reads `/recordings/stored/sub/t2` as a different, unknown path.
 *
 * @example
 * encodePathSegment('sub/t2');      // 'sub%2Ft2'
 * encodePathSegment('Stasis:dev1'); // 'Stasis:dev1'
 */
export function encodePathSegment(value: string): string {
  const encoded = encodeURIComponent(value);
  // Ids are plain text almost always: skip the two replacements when nothing was escaped.
  return encoded.indexOf('%') === -1 ? encoded : encoded.replace(/%3A/gi, ':').replace(/%40/gi, '@');
}

/**
 * The text form of a query value as the server parses it: booleans as `true`/`false`, numbers in
 * decimal, lists joined with commas (`['channel:a', 'channel:b']` -> `channel:a,channel:b`).
 */
export function formatQueryValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(formatQueryValue).join(',');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}

/** Shared by every request without query parameters. */
const NO_QUERY: readonly (readonly [string, string])[] = Object.freeze([]);

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

/**
 * Turns validated parameters into the request a server expects: path parameters substituted and
 * encoded, query parameters in the caller's order, body parameters gathered into the JSON body.
 * A `containers` parameter travels under its own name (`{"variables": {...}}`, `{"fields": [...]}`);
 * an `object` parameter (`applications.filter`'s `filter`) is the whole body.
 *
 * @param segment the server-level path segment: paths in the description start with `/asterisk`.
 * @example
 * encodeRequest(findOperation('channels', 'hangup')!, { channelId: 'c1', reason: 'busy' }, 'asterisk')
 * // { method: 'DELETE', path: '/channels/c1', query: [['reason', 'busy']] }
 */
export function encodeRequest(
  op: OperationSpec,
  params: Readonly<Record<string, unknown>>,
  segment: ServerSegment,
): TransportRequest {
  return encodePlannedRequest(operationPlan(op), params, segment);
}

/** {@link encodeRequest} with the operation's plan already at hand (the client's hot path). */
export function encodePlannedRequest(
  plan: OperationPlan,
  params: Readonly<Record<string, unknown>>,
  segment: ServerSegment,
): TransportRequest {
  const { op } = plan;
  const specs = plan.params;
  const literals = segment === 'core' ? plan.coreLiterals : plan.literals;
  let path = literals[0] as string;
  for (let i = 0; i < plan.pathParams.length; i++) {
    path += encodePathSegment(String(params[plan.pathParams[i] as string])) + (literals[i + 1] as string);
  }

  let query: [string, string][] | undefined;
  let wholeBody: unknown;
  let bodyFields: Record<string, unknown> | undefined;
  // Object.keys keeps the caller's order, which is the order a hand-written request would use.
  for (const name of Object.keys(params)) {
    const spec = specs.get(name);
    const value = params[name];
    if (!spec || spec.in === 'path' || isAbsent(value)) continue;
    if (spec.in === 'query') {
      query ??= [];
      query.push([name, formatQueryValue(value)]);
    } else if (spec.type === 'object') {
      wholeBody = value;
    } else {
      bodyFields ??= {};
      bodyFields[name] = value;
    }
  }
  const body = wholeBody ?? bodyFields;
  return body === undefined
    ? { method: op.method, path, query: query ?? NO_QUERY }
    : { method: op.method, path, query: query ?? NO_QUERY, body };
}
