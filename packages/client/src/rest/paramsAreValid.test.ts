import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findOperation, operations } from '../description/index.ts';
import type { OperationSpec, ParamSpec } from '../description/spec.ts';
import { findParamIssues } from './findParamIssues.ts';
import { operationPlan } from './operationPlan.ts';
import { paramsAreValid } from './paramsAreValid.ts';

const restOperations = operations.filter((op) => !op.upgrade);

/** Values of every kind a caller may pass, including each enum value of the operation. */
function anyValue(op: OperationSpec): fc.Arbitrary<unknown> {
  const enumValues = op.params.flatMap((p) => p.enum ?? []);
  const text = fc.oneof(
    fc.string(),
    fc.constantFrom('', 'a,b', ',', ...enumValues),
    fc.constantFrom(...(enumValues.length > 0 ? [enumValues.join(','), `${enumValues[0]},nope`] : ['x,y'])),
  );
  const scalar = fc.oneof(
    text,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constantFrom(null, undefined, Number.NaN, Number.POSITIVE_INFINITY),
  );
  return fc.oneof(
    scalar,
    fc.array(scalar, { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
    fc.constant([]),
  );
}

/** A value of the parameter's documented type (one of its enum values when it has some). */
function typedValue(spec: ParamSpec): fc.Arbitrary<unknown> {
  if (spec.enum && spec.enum.length > 0) return fc.constantFrom(...spec.enum);
  switch (spec.type) {
    case 'string':
      return fc.string({ minLength: 1 });
    case 'int':
    case 'long':
      return fc.integer();
    case 'double':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'containers':
      return spec.name === 'fields'
        ? fc.array(fc.record({ attribute: fc.string(), value: fc.string() }), { maxLength: 2 })
        : fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 });
    case 'object':
      return fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 });
  }
}

/**
 * Parameter objects as callers write them: each parameter of the operation absent, well typed
 * (most often) or anything at all, and now and then an unknown name.
 */
function anyParams(op: OperationSpec): fc.Arbitrary<Record<string, unknown>> {
  const own = op.params.map((spec) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 5, arbitrary: typedValue(spec) },
      { weight: 2, arbitrary: anyValue(op) },
    ),
  );
  return fc
    .tuple(
      fc.tuple(...own),
      fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: anyValue(op) }),
    )
    .map(([values, unknown]) => {
      const params: Record<string, unknown> = {};
      op.params.forEach((spec, i) => {
        if (values[i] !== undefined || i % 2 === 0) params[spec.name] = values[i];
      });
      if (unknown !== null) params.unknownParam = unknown;
      return params;
    });
}

describe('paramsAreValid', () => {
  it('agrees with the full validation on every operation, whatever the parameters', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...restOperations).chain((op) => fc.tuple(fc.constant(op), anyParams(op))),
        ([op, params]) => {
          const plan = operationPlan(op);
          expect(paramsAreValid(plan, params)).toBe(findParamIssues(plan, params).length === 0);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('accepts the requests of an IVR call and refuses the usual mistakes', () => {
    const play = operationPlan(findOperation('channels', 'play')!);
    expect(paramsAreValid(play, { channelId: 'c1', media: 'sound:hello', playbackId: 'p1' })).toBe(true);
    expect(paramsAreValid(play, { channelId: 'c1', media: ['sound:a', 'sound:b'] })).toBe(true);
    expect(paramsAreValid(play, { channelId: 'c1' })).toBe(false); // media is required
    expect(paramsAreValid(play, { channelId: 'c1', media: 'sound:a', skipms: 1.5 })).toBe(false);
    expect(paramsAreValid(play, { channelId: 'c1', media: 'sound:a', medai: 'x' })).toBe(false);
    const hangup = operationPlan(findOperation('channels', 'hangup')!);
    expect(paramsAreValid(hangup, { channelId: 'c1', reason: 'normal' })).toBe(true);
    expect(paramsAreValid(hangup, { channelId: 'c1', reason: 'sideways' })).toBe(false);
    const endpoint = operationPlan(findOperation('endpoints', 'get')!);
    expect(paramsAreValid(endpoint, { tech: 'PJSIP' })).toBe(false); // documented optional, needed in the path
  });
});
