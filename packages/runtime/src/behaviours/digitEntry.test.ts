import { describe, expect, it } from 'vitest';
import { type DigitEntryRules, nextKeyWithinMs, pressKey } from './digitEntry.ts';

const rules: DigitEntryRules = {
  maxDigits: 3,
  terminators: '#',
  validDigits: '0123456789',
  firstDigitTimeoutMs: 5000,
  interDigitTimeoutMs: 3000,
};

/** The verdicts of keys pressed one after the other. */
function press(keys: string, r: DigitEntryRules = rules) {
  let digits = '';
  return [...keys].map((key) => {
    const verdict = pressKey(r, digits, key);
    digits = verdict.digits;
    return `${verdict.kind}:${verdict.digits}`;
  });
}

describe('digit entry rules (collectDigits and gather)', () => {
  it('adds digits until maxDigits, which completes the entry', () => {
    expect(press('123')).toEqual(['more:1', 'more:12', 'complete:123']);
  });

  it('a terminator ends the entry as it was, without itself; even before the first digit', () => {
    expect(press('12#')).toEqual(['more:1', 'more:12', 'terminator:12']);
    expect(press('#')).toEqual(['terminator:']);
  });

  it('a key outside validDigits ends it as invalid, the key included to say what was pressed', () => {
    expect(press('1*')).toEqual(['more:1', 'invalid:1*']);
    // A terminator is checked before validity.
    expect(press('#', { ...rules, validDigits: '12' })).toEqual(['terminator:']);
  });

  it('without validDigits every key is a digit; without terminators # is one too', () => {
    const open = { ...rules, validDigits: undefined, terminators: '' };
    expect(press('*#1', open)).toEqual(['more:*', 'more:*#', 'complete:*#1']);
  });

  it('waits the first-digit timeout for the first key, the inter-digit one after', () => {
    expect(nextKeyWithinMs(rules, '')).toBe(5000);
    expect(nextKeyWithinMs(rules, '4')).toBe(3000);
  });
});
