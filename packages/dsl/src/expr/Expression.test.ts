import { describe, expect, it } from 'vitest';
import {
  compileExpression,
  evaluateCondition,
  evaluateExpression,
  type ExpressionScope,
} from './Expression.ts';

const scope = (over: Partial<ExpressionScope> = {}): ExpressionScope => ({
  input: { hours: 'Mon-Fri 09:00-17:00' },
  vars: { tries: 2, name: 'Ada', list: [1, 2, 3] },
  call: { channelId: 'c1', caller: { number: '100', name: 'Ada' } },
  event: { digit: '1' },
  now: Date.UTC(2026, 0, 5, 10, 0), // Monday 11:00 in Paris
  ...over,
});

describe('expressions (CEL)', () => {
  it('evaluates conditions and values over the documented roots', () => {
    expect(evaluateExpression('vars.tries + 1', scope())).toBe(3);
    expect(evaluateExpression("'PJSIP/' + call.caller.number", scope())).toBe('PJSIP/100');
    expect(evaluateCondition('event.digit in ["1", "2"]', scope())).toBe(true);
    expect(evaluateCondition('isOpen(now, input.hours, "Europe/Paris")', scope())).toBe(true);
    expect(
      evaluateCondition(
        'isOpen(now, input.hours, "Europe/Paris")',
        scope({ now: Date.UTC(2026, 0, 4, 10, 0) }),
      ),
    ).toBe(false); // Sunday
    expect(evaluateExpression('vars.list.filter(x, x > 1).size()', scope())).toBe(2);
  });

  it('has no access to JS globals, prototypes or functions', () => {
    for (const source of [
      'process.exit(1)',
      'globalThis',
      'require("fs")',
      'constructor',
      'Function("return 1")()',
    ]) {
      const result = compileExpression(source);
      expect(result.ok, source).toBe(false);
    }
    expect(() => evaluateExpression('vars.__proto__', scope())).toThrow(/No such key: __proto__/);
    expect(() => evaluateExpression('vars.constructor', scope())).toThrow(/No such key/);
    expect(() => evaluateExpression('vars["toString"]', scope())).toThrow(/No such key/);
  });

  it("cannot change the caller's objects (prototype pollution or otherwise)", () => {
    const vars = JSON.parse('{"__proto__": {"polluted": true}, "tries": 1}') as Record<string, unknown>;
    expect(evaluateExpression('vars.tries', scope({ vars }))).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const shared = { n: 1 };
    evaluateExpression('{"n": 2}', scope({ vars: shared }));
    expect(shared).toEqual({ n: 1 });
  });

  it('bounds evaluation: length, size and nesting are limited when the flow is loaded', () => {
    expect(compileExpression('1 + '.repeat(300) + '1')).toMatchObject({
      ok: false,
      problem: { kind: 'expression-too-complex' },
    });
    expect(compileExpression('vars.list.map(x, vars.list.map(y, x * y))')).toMatchObject({
      ok: false,
      problem: { kind: 'expression-too-complex' },
    });
    const big = Array.from({ length: 5000 }, (_, i) => i);
    expect(() => evaluateExpression('size(vars.big)', scope({ vars: { big } }))).toThrow(/too large/);
  });

  it('reports syntax and type problems with their offset instead of throwing', () => {
    expect(compileExpression('vars.tries >')).toMatchObject({
      ok: false,
      problem: { kind: 'expression-syntax', offset: 12 },
    });
    expect(compileExpression('"a" + 1')).toMatchObject({ ok: false, problem: { kind: 'expression-type' } });
    expect(compileExpression('foo.bar')).toMatchObject({ ok: false, problem: { kind: 'unknown-variable' } });
    expect(compileExpression('"text"', 'condition')).toMatchObject({
      ok: false,
      problem: { kind: 'expression-type' },
    });
  });

  it('fails at run time with a message, never a crash, when data is missing', () => {
    expect(() => evaluateExpression('vars.missing + 1', scope())).toThrow(
      /expression "vars.missing \+ 1" failed: No such key: missing/,
    );
    expect(() => evaluateCondition('vars.name', scope())).toThrow(/instead of true or false/);
  });
});
