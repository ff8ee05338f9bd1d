import { ErrorCode, RingflowError } from '@ringflow/client';
import type { DialplanIssue } from './Dialplan.ts';

/**
 * A dialplan that cannot be loaded. Carries every error found (not just the first), each with
 * file, line and what was expected; the message lists them in `file:line: message` form.
 *
 * @example
 * try { parseDialplan(text, 'extensions.conf'); }
 * catch (e) { if (e instanceof DialplanSyntaxError) for (const i of e.issues) console.log(i.position.line); }
 */
export class DialplanSyntaxError extends RingflowError {
  override name = 'DialplanSyntaxError';
  readonly issues: readonly DialplanIssue[];

  constructor(issues: readonly DialplanIssue[]) {
    const lines = issues.map(formatIssue);
    super(ErrorCode.CONFIG, `The dialplan has ${issues.length} error(s):\n${lines.join('\n')}`);
    this.issues = issues;
  }
}

/** `extensions.conf:12: Expected ...` (with `:column` when known). */
export function formatIssue(issue: DialplanIssue): string {
  const { file, line, column } = issue.position;
  return `${file}:${line}${column === undefined ? '' : `:${column}`}: ${issue.severity}: ${issue.message}`;
}
