import type { StepFailure } from '@ringflow/runtime';

/**
 * A step failure in one line, as the console's timeline shows it: what failed where, what the
 * server said, what the flow did next (the same words as a scenario's timeline).
 * @example formatStepFailure(f) // 'play failed (greet, step 2, flows/ivr.yaml:14:9): channels.play answered 404 "Channel not found" → ended the call'
 */
export function formatStepFailure(f: StepFailure): string {
  const what =
    f.operation !== undefined && f.status !== undefined
      ? `${f.operation} answered ${f.status}${f.serverMessage ? ` "${f.serverMessage}"` : ''}`
      : f.message;
  return `${f.step} failed (${f.state}, step ${f.index + 1}${f.at ? `, ${f.at}` : ''}): ${what} → ${f.next}`;
}
