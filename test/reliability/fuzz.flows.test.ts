import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { checkDocument, shippedFlows } from './checkFlowDocument.ts';

describe('fuzzing the flow compiler: positioned errors, never an exception', () => {
  it('the shipped flows are valid and compile', () => {
    expect(shippedFlows.length).toBeGreaterThan(0);
    for (const { file, text } of shippedFlows) expect(checkDocument(text, file)).toBe('valid');
  });

  it('300 random YAML documents and random text (seed 8)', () => {
    const document = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => stringify(v)),
      fc
        .record({
          name: fc.jsonValue({ maxDepth: 1 }),
          start: fc.oneof(fc.string({ maxLength: 8 }), fc.constant('main')),
          states: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
        })
        .map((v) => stringify(v)),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom(
        '',
        '---\n---\n',
        'a: &x [*x]',
        '? [a]\n: b',
        '%YAML 9.9\n---\na: 1',
        'a: !!binary ~',
        'a:\n\t- b',
      ),
    );
    fc.assert(
      fc.property(document, (text) => {
        checkDocument(text, 'random.yaml');
      }),
      { numRuns: 300, seed: 8 },
    );
  });
});
