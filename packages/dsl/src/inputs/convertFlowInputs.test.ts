import { describe, expect, it } from 'vitest';
import { parseFlow } from '../parseFlow.ts';
import { createFlowCallMachine } from '../runtime/createFlowCallMachine.ts';
import { testFlow } from '@ringflow/testing';
import { convertFlowInputs } from './convertFlowInputs.ts';
import { FlowInputError } from './FlowInputError.ts';

const declared = {
  maxAttempts: { type: 'number', default: 3 },
  vip: { type: 'boolean', default: false },
  ringFor: { type: 'duration', default: '20s' },
  queues: { type: 'list' },
  extra: { type: 'map' },
  number: { type: 'string', required: true },
} as const;

describe('convertFlowInputs', () => {
  it('converts text to the declared types and fills defaults', () => {
    expect(
      convertFlowInputs(declared, {
        maxAttempts: '2',
        vip: 'true',
        ringFor: '1.5m',
        queues: 'sales, support',
        extra: '{"a":1}',
        number: 'PJSIP/7',
      }),
    ).toEqual({
      ok: true,
      inputs: {
        maxAttempts: 2,
        vip: true,
        ringFor: 90,
        queues: ['sales', 'support'],
        extra: { a: 1 },
        number: 'PJSIP/7',
      },
    });
    const defaults = convertFlowInputs(declared, { number: 'x', queues: ['a'] });
    expect(defaults).toEqual({
      ok: true,
      inputs: { number: 'x', queues: ['a'], maxAttempts: 3, vip: false, ringFor: 20 },
    });
    // Converting what was converted changes nothing (the compiled flow converts again).
    if (defaults.ok) expect(convertFlowInputs(declared, defaults.inputs)).toEqual(defaults);
  });

  it('refuses a value that does not fit, an undeclared input and a missing required one, naming each', () => {
    const result = convertFlowInputs(declared, { maxAttempts: 'x', vip: 'yes please', maxAttemps: '2' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.name, p.kind])).toEqual([
      ['maxAttempts', 'wrong-type'],
      ['vip', 'wrong-type'],
      ['maxAttemps', 'unknown'],
      ['number', 'missing'],
    ]);
    expect(result.problems[0]!.message).toBe(
      'input "maxAttempts" is declared number: expected a number, got the text "x". Declared inputs: maxAttempts (number), vip (boolean), ringFor (duration), queues (list), extra (map), number (string).',
    );
    expect(result.problems[2]!.message).toContain('Did you mean "maxAttempts"?');
    expect(convertFlowInputs({ pin: { type: 'string' } }, { pin: 1234 }).ok).toBe(false);
  });
});

const OUTBOUND_LIKE = `name: tries
inputs: { maxAttempts: { type: number, default: 3 } }
vars: { attempts: 2 }
start: s
states:
  s:
    choose:
      - { when: vars.attempts < input.maxAttempts, goto: again }
      - { goto: done }
  again: { steps: [hangup] }
  done: { steps: [hangup] }
`;

describe('typed inputs where flows start', () => {
  const flow = () => {
    const result = parseFlow(OUTBOUND_LIKE, 'tries.yaml');
    if (!result.ok) throw new Error('flow has errors');
    return result.flow;
  };

  it('createFlowCallMachine refuses a fixed input that does not fit, before any call', () => {
    expect(() => createFlowCallMachine(flow(), { inputs: { maxAttempts: 'x' } })).toThrow(FlowInputError);
    expect(() => createFlowCallMachine(flow(), { inputs: { maxAttempts: 'x' } })).toThrow(
      'flow "tries": input "maxAttempts" is declared number',
    );
    expect(() => createFlowCallMachine(flow(), { inputs: { maxAttempts: '3' } })).not.toThrow();
  });

  it('testFlow compares the number 3, not the text "3"', async () => {
    const call = await testFlow(flow(), { inputs: { maxAttempts: '3' } });
    await call.expectEnd({ status: 'completed', within: '1m' });
    call.expectVisited('again');
    await call.close();
    await expect(testFlow(flow(), { inputs: { nope: 1 } })).rejects.toThrow('the flow has no input "nope"');
  });
});
