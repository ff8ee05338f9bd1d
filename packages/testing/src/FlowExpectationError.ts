import { formatTimeline, type TimelineEntry } from './CallTimeline.ts';

/**
 * A flow test expectation that did not hold. The message says what was expected, what happened
 * instead, and shows the timeline with virtual timestamps (every call of the scenario, each line
 * labelled with its call when there are several), so a failing test can be read without
 * re-running it.
 */
export class FlowExpectationError extends Error {
  override name = 'FlowExpectationError';
  readonly expected: string;
  readonly happened: string;
  readonly timeline: readonly TimelineEntry[];

  constructor(expected: string, happened: string, timeline: readonly TimelineEntry[]) {
    const shown = timeline.length === 0 ? '  (nothing happened)' : indent(formatTimeline(timeline));
    const calls = new Set(timeline.map((e) => e.call).filter((c) => c !== undefined));
    const whose = calls.size > 1 ? 'timeline of the calls' : 'timeline of the call';
    super(`expected ${expected}\nbut ${happened}\n\n${whose}:\n${shown}`);
    this.expected = expected;
    this.happened = happened;
    this.timeline = timeline;
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
