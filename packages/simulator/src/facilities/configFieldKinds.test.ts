import { describe, expect, it } from 'vitest';
import { boolField, choiceField, intRangeField, isTrueWord, uintField } from './configFieldKinds.ts';

describe('configFieldKinds', () => {
  it('reads unsigned numbers like the server: decimal, hex, octal, no minus, no trailing text', () => {
    const field = uintField('n');
    expect(field.default).toBe('0');
    expect(['3', ' 3', '+3', '0x1F', '017', '0', '4294967295'].map(field.parse)).toEqual([
      '3',
      '3',
      '3',
      '31',
      '15',
      '0',
      '4294967295',
    ]);
    for (const bad of ['', '-1', '3 ', 'abc', '4294967296', '08', '1.5', '0x']) {
      expect(field.parse(bad), bad).toBeUndefined();
    }
  });

  it('reads yes/no options leniently, as the server does', () => {
    const field = boolField('b', 'no');
    expect(['yes', 'TRUE', 'y', 't', '1', 'on', ' On '].map(field.parse)).toEqual(Array(7).fill('yes'));
    expect(['no', 'notabool', '', '0'].map(field.parse)).toEqual(Array(4).fill('no'));
    expect(isTrueWord('off')).toBe(false);
  });

  it('reads ranges and choices', () => {
    const timeout = intRangeField('t', '100', 1, 10);
    expect(timeout.parse('10')).toBe('10');
    expect(timeout.parse('0')).toBeUndefined();
    expect(timeout.parse('x')).toBeUndefined();
    const format = choiceField('f', 'plain', ['plain', 'crypt']);
    expect(format.parse('CRYPT')).toBe('crypt');
    expect(format.parse('md5')).toBeUndefined();
  });
});
