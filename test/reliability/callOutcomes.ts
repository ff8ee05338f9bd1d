import { expect } from 'vitest';

/** The lines a call session logs about its life: one `call started`, one `call ended` with an outcome. */
export function callLifeLines(records: readonly Record<string, unknown>[]) {
  const started = new Map<string, number>();
  const ended = new Map<string, string[]>();
  for (const r of records) {
    const call = typeof r.call === 'string' ? r.call : undefined;
    if (!call) continue;
    if (r.msg === 'call started') started.set(call, (started.get(call) ?? 0) + 1);
    if (r.msg === 'call ended') ended.set(call, [...(ended.get(call) ?? []), String(r.outcome)]);
  }
  return { started, ended };
}

/**
 * Every call the application took (its StasisStart reached it) was started once and logged
 * exactly one outcome line. Returns the count of each outcome.
 */
export function expectOneOutcomeLinePerCall(
  records: readonly Record<string, unknown>[],
  callsReceived: ReadonlySet<string>,
): Record<string, number> {
  const { started, ended } = callLifeLines(records);
  expect(new Set(started.keys())).toEqual(callsReceived);
  for (const [call, times] of started) expect(times, `call ${call} started lines`).toBe(1);
  expect(new Set(ended.keys())).toEqual(callsReceived);
  const outcomes: Record<string, number> = {};
  for (const [call, list] of ended) {
    expect(list, `call ${call} outcome lines`).toHaveLength(1);
    outcomes[list[0]!] = (outcomes[list[0]!] ?? 0) + 1;
  }
  return outcomes;
}
