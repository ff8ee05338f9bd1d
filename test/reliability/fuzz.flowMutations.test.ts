/**
 * Small edits of the shipped flows (as a person typing or a bad merge makes them) always give
 * positioned diagnostics, never an exception. Seed 2024 once found a crash on a bare `- set:`
 * step (Object.keys(null) in the semantic check); the fix is in checkFlowSemantics.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDocument, shippedFlows } from './checkFlowDocument.ts';

/** A small edit to a flow document, as a person typing (or a bad merge) makes. */
type Mutation =
  | { kind: 'delete-line'; at: number }
  | { kind: 'duplicate-line'; at: number }
  | { kind: 'swap-lines'; at: number; other: number }
  | { kind: 'replace-char'; at: number; ch: string }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'indent'; at: number; by: number };

const insertion = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    ': ',
    '- ',
    '\n',
    '\t',
    '{',
    '[',
    '"',
    "'",
    '&a ',
    '*a',
    '!!int ',
    '#',
    '${',
    '<<: *x',
    '~',
    '  x: y\n',
    '\u0000',
    '\ud800',
  ),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap-lines' as const), at: fc.nat(), other: fc.nat() }),
  fc.record({
    kind: fc.constant('replace-char' as const),
    at: fc.nat(),
    ch: fc.string({ minLength: 1, maxLength: 1 }),
  }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: insertion }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
);

function mutate(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const line = (n: number) => n % lines.length;
  switch (m.kind) {
    case 'delete-line':
      lines.splice(line(m.at), 1);
      return lines.join('\n');
    case 'duplicate-line':
      lines.splice(line(m.at), 0, lines[line(m.at)]!);
      return lines.join('\n');
    case 'swap-lines': {
      const a = line(m.at);
      const b = line(m.other);
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      return lines.join('\n');
    }
    case 'replace-char': {
      const at = m.at % Math.max(1, text.length);
      return text.slice(0, at) + m.ch + text.slice(at + 1);
    }
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'truncate':
      return text.slice(0, m.at % (text.length + 1));
    case 'indent': {
      const n = line(m.at);
      const current = lines[n]!;
      lines[n] = m.by >= 0 ? ' '.repeat(m.by) + current : current.replace(new RegExp(`^ {0,${-m.by}}`), '');
      return lines.join('\n');
    }
  }
}

describe('fuzzing the flow compiler with edits of the shipped flows', () => {
  it('400 mutations of the shipped flows, 1 to 4 edits each (seed 2024)', () => {
    const seen = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(...shippedFlows),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (flow, edits) => {
          const text = edits.reduce(mutate, flow.text);
          seen[checkDocument(text, flow.file)]++;
        },
      ),
      { numRuns: 400, seed: 2024 },
    );
    // Both kinds occur: edits that keep the flow valid and edits that break it.
    expect(seen.invalid).toBeGreaterThan(100);
    console.info(`flow mutations: ${JSON.stringify(seen)}`);
  });
});
