import { describe, expect, it } from 'vitest';
import { compareExtensions, matchExtension, patternProblem } from './extensionPattern.ts';

describe('matchExtension', () => {
  it.each([
    ['100', '100', true],
    ['100', '1000', false],
    ['555-1234', '5551234', true],
    ['s', 's', true],
    ['_X.', '5', false],
    ['_X.', '55', true],
    ['_X!', '5', true],
    ['_X!', '', false],
    ['_!', '', true],
    ['_.', 'h', true],
    ['_NXX', '200', true],
    ['_NXX', '100', false],
    ['_NXX', '2000', false],
    ['_ZX', '10', true],
    ['_ZX', '01', false],
    ['_[1-5]XX', '512', true],
    ['_[1-5]XX', '612', false],
    ['_[13-5]X', '31', true],
    ['_[13-5]X', '21', false],
    ['_nxx', '299', true],
    ['_1NXX-NXX-XXXX', '12125551234', true],
    ['_[a-c]', 'b', true],
    ['_[]1', '1', true],
  ])('%s matches %s: %s', (pattern, dialled, expected) => {
    expect(matchExtension(pattern, dialled)).toBe(expected);
  });

  it('never matches with a malformed pattern', () => {
    expect(matchExtension('_[1-5X', '1')).toBe(false);
    expect(patternProblem('_[1-5X')).toMatch(/unclosed '\['/);
    expect(patternProblem('_')).toMatch(/nothing after '_'/);
    expect(patternProblem('_X.')).toBeUndefined();
  });
});

describe('compareExtensions (search order)', () => {
  const order = (names: string[]) => [...names].sort(compareExtensions);

  it('puts exact names before any pattern', () => {
    expect(order(['_X.', '_1XX', '100', 's'])).toEqual(['100', 's', '_1XX', '_X.']);
  });

  it('puts the pattern with the smaller set at the first difference first', () => {
    expect(order(['_NXX', '_1XX', '_12X', '_XXX', '_ZXX'])).toEqual(['_12X', '_1XX', '_NXX', '_ZXX', '_XXX']);
  });

  it('breaks ties between sets of one size by the lowest character', () => {
    expect(order(['_[4-6]', '_[1-3]', '_[2-4]'])).toEqual(['_[1-3]', '_[2-4]', '_[4-6]']);
  });

  it("puts '.' after every set, '!' after '.', and an ended pattern last", () => {
    expect(order(['_X', '_X!', '_X.', '_XX'])).toEqual(['_XX', '_X.', '_X!', '_X']);
  });

  it('ignores dashes', () => {
    expect(compareExtensions('_NXX-XXXX', '_NXXXXXX')).toBe(0);
    expect(compareExtensions('555-1234', '5551234')).toBe(0);
  });
});
