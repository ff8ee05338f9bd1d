import { stepDefinition } from '../steps/index.ts';

/**
 * A step's name and parameters. An item with options written beside its step (`as:` one level
 * too high, told by the shape check) is still that step, so the rest of it is checked.
 */
export function stepEntries(step: unknown): [string, Record<string, unknown>] | undefined {
  if (typeof step === 'string') return [step, {}];
  if (typeof step !== 'object' || step === null || Array.isArray(step)) return undefined;
  const entries = Object.entries(step);
  const steps = entries.length === 1 ? entries : entries.filter(([name]) => stepDefinition(name));
  if (steps.length !== 1) return undefined;
  const [name, body] = steps[0]!;
  return [name, (body ?? {}) as Record<string, unknown>];
}
