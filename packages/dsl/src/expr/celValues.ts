/** Values handed to an expression are capped so that evaluation stays bounded (see README). */
export const MAX_SCOPE_VALUES = 2000;

export class ScopeTooLargeError extends Error {
  override name = 'ScopeTooLargeError';
}

/**
 * Copies a JS value into the shapes CEL expects: whole numbers become `bigint` (CEL `int`, so
 * `vars.tries + 1` works), objects are copied without prototypes, functions and symbols are
 * dropped. Copying also means an expression can never reach or change the caller's objects.
 */
export function toCel(value: unknown, budget = { left: MAX_SCOPE_VALUES }): unknown {
  if (--budget.left < 0)
    throw new ScopeTooLargeError(
      `expression data is too large (more than ${MAX_SCOPE_VALUES} values in vars/input/event)`,
    );
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'number':
      return Number.isSafeInteger(value) ? BigInt(value) : value;
    case 'string':
    case 'boolean':
    case 'bigint':
      return value;
    case 'object': {
      if (value instanceof Date || value instanceof Uint8Array) return value;
      if (Array.isArray(value)) return value.map((v) => toCel(v, budget));
      const out: Record<string, unknown> = Object.create(null);
      for (const [k, v] of Object.entries(value)) {
        if (typeof v === 'function' || typeof v === 'symbol' || v === undefined) continue;
        out[k] = toCel(v, budget);
      }
      return out;
    }
    default:
      return null;
  }
}

/** Converts an expression result back to plain JS: `bigint` to number, maps to plain objects. */
export function fromCel(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k)] = fromCel(v);
    return out;
  }
  if (value && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fromCel(v);
    return out;
  }
  return value;
}
