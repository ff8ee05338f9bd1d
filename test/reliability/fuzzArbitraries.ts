import { type OperationSpec, operations } from '@ringflow/client';
import fc from 'fast-check';

/** Names that try to leave the recordings directory, or to confuse whatever reads them. */
export const HOSTILE_NAMES = [
  '../../etc/passwd',
  '../secret',
  '..',
  '.',
  'sub/../../secret',
  '/etc/passwd',
  '%2e%2e/secret',
  '..%2fsecret',
  '%252e%252e%252fsecret',
  'escape/pwned',
  'escape',
  'known',
  'sub/t2',
  'a\\..\\..\\b',
  'nul\u0000x',
  '\u202egnp.exe',
  'lone\ud800half',
  'ünïcödé/名前',
  '  ',
  '',
  'x'.repeat(5000),
] as const;

/** A value for a path or query parameter: hostile names, numbers, words, random text. */
export const paramValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_NAMES),
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    'true',
    'false',
    '-1',
    '0',
    '1e309',
    'NaN',
    'null',
    '[]',
    '{}',
    'sound:hello-world',
    'Stasis:x',
  ),
);

/** A request body: none, any JSON, a variables object, or text that is not JSON at all. */
export type FuzzBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; text: string };

export const fuzzBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: 'json' as const, value })),
  fc
    .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
    .map((variables) => ({ kind: 'json' as const, value: { variables } })),
  fc
    .constantFrom('{', '{"variables":', '[1,2', 'not json', '\u0000', '{"a":1}}', 'x'.repeat(70_000))
    .map((text) => ({ kind: 'text' as const, text })),
);

/** One request aimed at an operation of the description, with its parameters mangled. */
export interface FuzzRequest {
  readonly op: OperationSpec;
  readonly method: string;
  readonly pathValues: readonly string[];
  /** Percent-encode path values (the client's way) or send them raw (a hand-made request). */
  readonly encodePath: boolean;
  readonly query: Readonly<Record<string, string>>;
  readonly body: FuzzBody;
}

const restOperations = operations.filter((op) => op.upgrade === undefined);

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.constantFrom(...restOperations).chain((op) => {
  const pathCount = [...op.path.matchAll(/\{(\w+)\}/g)].length;
  const queryNames = op.params.filter((p) => p.in === 'query').map((p) => p.name);
  const queryKey =
    queryNames.length > 0
      ? fc.oneof(fc.constantFrom(...queryNames), fc.string({ maxLength: 8 }))
      : fc.string({ maxLength: 8 });
  return fc.record({
    op: fc.constant(op),
    method: fc.oneof(
      { weight: 4, arbitrary: fc.constant(op.method) },
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
    ),
    pathValues: fc.array(paramValue, { minLength: pathCount, maxLength: pathCount }),
    encodePath: fc.boolean(),
    query: fc.dictionary(queryKey, paramValue, { maxKeys: 6 }),
    body: fuzzBody,
  });
});

/**
 * Percent-encodes every byte of the UTF-8 form outside `keep`. Unlike encodeURIComponent it
 * accepts lone surrogates (they become U+FFFD, as on the wire).
 */
export function percentEncode(value: string, keep = /[A-Za-z0-9\-._~]/): string {
  let out = '';
  for (const ch of value) {
    if (keep.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The request path below the interface root. */
export function fuzzPath(request: FuzzRequest): string {
  let i = 0;
  return request.op.path.replace(/\{\w+\}/g, () => {
    const value = request.pathValues[i++] ?? '';
    return request.encodePath ? percentEncode(value) : value;
  });
}
