import { FlowValidationError } from './FlowValidationError.ts';
import type { FlowDocument } from './model/flowSchema.ts';
import type { ExprValue } from './schema/s.ts';
import { type Flow, validateFlow } from './validate/validateFlow.ts';

/**
 * Defines a flow in TypeScript. The argument has the same model as a YAML file (with full types,
 * so editors complete step names and options); it goes through the same validator.
 *
 * @throws FlowValidationError when the flow has errors (diagnostics carry paths instead of lines).
 * @example
 * const hello = defineFlow({
 *   name: 'hello',
 *   start: 'greet',
 *   states: { greet: { steps: ['answer', { play: { media: 'sound:hello-world' } }, 'hangup'] } },
 * });
 */
export function defineFlow(document: FlowDocument): Flow {
  const result = validateFlow(document, { source: `defineFlow(${document.name})` });
  if (!result.ok) throw new FlowValidationError(`defineFlow(${document.name})`, result.diagnostics);
  return result.flow;
}

/**
 * A value computed by an expression, for builder flows: `endpoint: expr("'PJSIP/' + vars.ext")`.
 * The same as writing `{ expr: "..." }`.
 */
export function expr(source: string): ExprValue {
  return { expr: source };
}
