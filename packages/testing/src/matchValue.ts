/**
 * What an expected value may be: a literal (compared as text with what the server received, since
 * query parameters travel as text), a regular expression, or a partial object / array whose
 * entries must all match.
 */
export type Expected =
  | string
  | number
  | boolean
  | null
  | RegExp
  | readonly Expected[]
  | { readonly [key: string]: Expected };

/**
 * Tells whether `actual` matches `expected`: literals compare as text (`5` matches `'5'`), a
 * RegExp is tested against the text, an object needs only the keys it lists (partial), an array
 * needs the same length with each item matching.
 *
 * @example
 * matchValue({ media: /hello/, beep: true }, { media: 'sound:hello-world', beep: 'true', x: '1' }); // true
 */
export function matchValue(expected: Expected, actual: unknown): boolean {
  if (expected instanceof RegExp) return actual !== undefined && expected.test(asText(actual));
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      // A query list travels as comma separated text (`channel=a,b`).
      return typeof actual === 'string' && matchValue(expected.map(String).join(','), actual);
    }
    return expected.length === actual.length && expected.every((e, i) => matchValue(e, actual[i]));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).every(([key, value]) => matchValue(value, record[key]));
  }
  if (expected === null) return actual === null || actual === undefined;
  return actual !== undefined && actual !== null && asText(actual) === String(expected);
}

function asText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}

/**
 * Writes an expected value for a failure message (regular expressions as `/.../`).
 * @example describeExpected({ media: /hello/ }) // '{ media: /hello/ }'
 */
export function describeExpected(expected: Expected): string {
  if (expected instanceof RegExp) return String(expected);
  if (Array.isArray(expected)) return `[${expected.map(describeExpected).join(', ')}]`;
  if (expected !== null && typeof expected === 'object') {
    const parts = Object.entries(expected).map(([k, v]) => `${k}: ${describeExpected(v)}`);
    return parts.length === 0 ? '{}' : `{ ${parts.join(', ')} }`;
  }
  return typeof expected === 'string' ? JSON.stringify(expected) : String(expected);
}

/**
 * Reads the YAML way of writing a regular expression: a string `/pattern/flags` becomes a RegExp,
 * recursively; everything else is kept.
 *
 * @example fromYamlExpected({ media: '/hello/i' }) // { media: /hello/i }
 */
export function fromYamlExpected(value: unknown): Expected {
  if (typeof value === 'string') {
    const m = /^\/(.+)\/([dgimsuy]*)$/s.exec(value);
    return m ? new RegExp(m[1]!, m[2]) : value;
  }
  if (Array.isArray(value)) return value.map(fromYamlExpected);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromYamlExpected(v)]));
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  return String(value);
}
