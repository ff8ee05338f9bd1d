import { parseDuration } from '@ringflow/dsl';
import type { TestDuration } from './TestCallOptions.ts';

/** Milliseconds from a test duration (a number is milliseconds here; flows count seconds). */
export function toMs(value: TestDuration, what: string): number {
  const ms = typeof value === 'number' ? value : parseDuration(value);
  if (ms === undefined || !Number.isFinite(ms) || ms < 0)
    throw new TypeError(`${what}: expected a duration such as 500ms, 2s or 1m, got ${JSON.stringify(value)}`);
  return ms;
}
