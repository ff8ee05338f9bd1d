import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonBody } from './parseJsonBody.ts';

describe('parseJsonBody', () => {
  it('accepts an object or an array', () => {
    expect(parseJsonBody('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonBody('[1,"]"]')).toEqual([1, ']']);
  });

  it('refuses invalid text and a top-level value that is not an object or array, as jansson does', () => {
    for (const text of ['{', '\u0000\u0001', 'null', '1', '"x"', 'true']) {
      expect(parseJsonBody(text)).toBeUndefined();
    }
  });

  it('refuses nesting deeper than the real parser allows, counting no brackets inside strings', () => {
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(parseJsonBody(nested(MAX_JSON_DEPTH))).toBeDefined();
    expect(parseJsonBody(nested(MAX_JSON_DEPTH + 1))).toBeUndefined();
    expect(parseJsonBody(`{"a":"${'['.repeat(MAX_JSON_DEPTH + 1)}"}`)).toBeDefined();
  });
});
