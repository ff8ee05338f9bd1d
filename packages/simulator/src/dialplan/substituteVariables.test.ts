// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are dialplan text, not templates
import { describe, expect, it } from 'vitest';
import { evaluateExpression, ExpressionError } from './evaluateExpression.ts';
import { substituteVariables, type VariableScope } from './substituteVariables.ts';

function scope(vars: Record<string, string>, warnings: string[] = []): VariableScope {
  return {
    variable: (name) => vars[name],
    func: (name, args) =>
      name === 'CALLERID' ? vars[`CALLERID_${args}`] : name === 'LEN' ? String(args.length) : undefined,
    warn: (message) => warnings.push(message),
  };
}

const vars = {
  EXTEN: '9100',
  N: '2',
  VAR_2: 'two',
  WHICH: 'num',
  CALLERID_num: '5551234',
  CALLERID_name: 'Alice',
};

describe('substituteVariables', () => {
  it.each([
    ['plain text', 'plain text'],
    ['${EXTEN}', '9100'],
    ['${EXTEN:1}', '100'],
    ['${EXTEN:1:2}', '10'],
    ['${EXTEN:-2}', '00'],
    ['${EXTEN:0:-1}', '910'],
    ['${EXTEN:-3:2}', '10'],
    ['${EXTEN:10}', ''],
    ['${MISSING}', ''],
    ['[${MISSING}]', '[]'],
    ['${VAR_${N}}', 'two'],
    ['${CALLERID(num)}', '5551234'],
    ['${CALLERID(${WHICH})}', '5551234'],
    ['${CALLERID(num):0:3}', '555'],
    ['${LEN(${EXTEN})}', '4'],
    ['$[${N} + 40]', '42'],
    ['$[${EXTEN:1} = 100]', '1'],
    ['a$b', 'a$b'],
    ['${EXTEN}-${N}', '9100-2'],
  ])('%s -> %s', (text, expected) => {
    expect(substituteVariables(text, scope(vars))).toBe(expected);
  });

  it('keeps an unclosed ${ as written and warns', () => {
    const warnings: string[] = [];
    expect(substituteVariables('a ${EXTEN', scope(vars, warnings))).toBe('a ${EXTEN');
    expect(warnings[0]).toMatch(/without a closing "}"/);
  });

  it('substitutes a malformed expression as empty and warns', () => {
    const warnings: string[] = [];
    expect(substituteVariables('[$[1 +]]', scope(vars, warnings))).toBe('[]');
    expect(warnings[0]).toMatch(/cannot evaluate \$\[1 \+\]/);
  });
});

describe('evaluateExpression', () => {
  it.each([
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['7 % 3', '1'],
    ['10 / 4', '2.5'],
    ['-3 + 1', '-2'],
    ['3 > 2', '1'],
    ['3 >= 4', '0'],
    ['abc = abc', '1'],
    ['"a b" = "a b"', '1'],
    ['abc != abd', '1'],
    ['10 < 9', '0'],
    ['"10" < "9"', '0'],
    ['!0', '1'],
    ['1 & 0', '0'],
    ['0 | 5', '5'],
    ['1 ? yes :: no', 'yes'],
    ['0 ? yes :: no', 'no'],
    ['"" ? yes :: no', 'no'],
  ])('%s = %s', (text, expected) => {
    expect(evaluateExpression(text)).toBe(expected);
  });

  it.each([['1 +'], ['1 / 0'], ['abc + 1'], ['(1'], ['a : b'], ['"open']])('rejects %s', (text) => {
    expect(() => evaluateExpression(text)).toThrow(ExpressionError);
  });
});
