import { ErrorCode, RingflowError } from './RingflowError.ts';
import type { ParamIssue } from '../description/validate.ts';

/**
 * The parameters of a request failed validation against the interface description; nothing was
 * sent. `issues` lists every problem, each naming the parameter and, for enums, the allowed values.
 *
 * @example
 * try { await client.channel('c1').mute({ direction: 'sideways' as 'in' }); }
 * catch (e) { if (e instanceof InvalidParamsError) console.log(e.issues[0]?.allowed); } // ['both', 'in', 'out']
 */
export class InvalidParamsError extends RingflowError {
  override name = 'InvalidParamsError';
  /** The operation, as `resource.name`. */
  readonly operation: string;
  readonly issues: readonly ParamIssue[];

  constructor(operation: string, issues: readonly ParamIssue[]) {
    super(
      ErrorCode.INVALID_PARAMS,
      `${operation}: invalid parameters, nothing was sent:\n${issues.map((i) => `  - ${i.message}`).join('\n')}`,
    );
    this.operation = operation;
    this.issues = issues;
  }
}
