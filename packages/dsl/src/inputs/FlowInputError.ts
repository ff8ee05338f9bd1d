import { ErrorCode, RingflowError } from '@ringflow/client/interface';
import { convertFlowInputs, type InputDeclaration, type InputProblem } from './convertFlowInputs.ts';

/**
 * Inputs given to a flow that it cannot use: undeclared, of the wrong type, or required and
 * missing. Raised before any call starts; `problems` lists each one, the message says them all.
 */
export class FlowInputError extends RingflowError {
  override name = 'FlowInputError';
  readonly problems: readonly InputProblem[];

  constructor(flow: string, problems: readonly InputProblem[]) {
    super(
      ErrorCode.CONFIG,
      problems.length === 1
        ? `flow "${flow}": ${problems[0]!.message}`
        : `flow "${flow}": ${problems.length} input problems:\n${problems.map((p) => `  ${p.message}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

/**
 * The inputs of a flow converted to their declared types, defaults applied; throws
 * {@link FlowInputError} naming every input that does not fit.
 *
 * @example
 * const inputs = flowInputsOrThrow('outbound', flow.document.inputs ?? {}, { maxAttempts: '2' }); // { maxAttempts: 2, number: ... }
 */
export function flowInputsOrThrow(
  flow: string,
  declared: Readonly<Record<string, InputDeclaration>>,
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const result = convertFlowInputs(declared, given);
  if (!result.ok) throw new FlowInputError(flow, result.problems);
  return result.inputs;
}
