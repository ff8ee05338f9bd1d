import { convertInputValue } from '../inputs/convertFlowInputs.ts';
import { describeValue } from '../schema/checkValue.ts';
import { type Diagnostic, diagnostic, type Path } from '../validate/Diagnostic.ts';
import { didYouMean } from '../validate/suggest.ts';
import type { StepCheckScope } from './StepDefinition.ts';

/**
 * A subflow call against the subflows the document defines: the name, and the inputs given
 * (undeclared, of the wrong type, or required and missing).
 */
export function checkSubflowCall(
  params: { readonly flow?: unknown; readonly inputs?: unknown },
  path: Path,
  { subflows }: StepCheckScope,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const name = params.flow;
  if (typeof name !== 'string') return out;
  const sub = subflows[name];
  if (!sub || !Object.hasOwn(subflows, name)) {
    out.push(
      diagnostic(
        'unknown-subflow',
        [...path, 'flow'],
        `No subflow named "${name}".${didYouMean(name, Object.keys(subflows)) || ' Define it under subflows.'}`,
      ),
    );
    return out;
  }
  const declared = sub.inputs ?? {};
  const given = (params.inputs ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(given)) {
    const input = Object.hasOwn(declared, key) ? declared[key] : undefined;
    const literal = !(value !== null && typeof value === 'object' && 'expr' in value);
    if (input && literal && convertInputValue(input.type, value) === undefined)
      out.push(
        diagnostic(
          'wrong-type',
          [...path, 'inputs', key],
          `Input "${key}" of subflow "${name}" is declared ${input.type}, found ${describeValue(value)}.`,
        ),
      );
  }
  for (const key of Object.keys(given))
    if (!Object.hasOwn(declared, key))
      out.push(
        diagnostic(
          'unknown-input',
          [...path, 'inputs', key],
          `Subflow "${name}" has no input "${key}".${didYouMean(key, Object.keys(declared)) || ` Its inputs: ${Object.keys(declared).join(', ') || 'none'}.`}`,
          { target: 'key' },
        ),
      );
  for (const [key, input] of Object.entries(declared))
    if (input.required && input.default === undefined && !Object.hasOwn(given, key))
      out.push(
        diagnostic(
          'missing-input',
          [...path, 'inputs'],
          `Subflow "${name}" needs input "${key}" (${input.type}).`,
          { target: 'key' },
        ),
      );
  return out;
}
