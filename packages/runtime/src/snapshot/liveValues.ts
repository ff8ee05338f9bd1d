/**
 * A call's machine context holds a few live objects beside its data: the call's handle, a
 * compiled flow's host, the engine's runner. A snapshot written for another process cannot
 * hold them; it holds a marker instead (`{ $ringflow: 'call' }`), and the process that restores
 * the call puts its own live object back in its place.
 */

/** The method a live object persists itself with: it returns its marker, plain JSON data. */
export const PERSIST: unique symbol = Symbol.for('ringflow.persist');

/** A live object's marker in a snapshot: its kind, and whatever plain data it needs back. */
export interface PersistedValue {
  readonly $ringflow: string;
}

/** An object that writes a marker of itself into snapshots instead of its fields. */
export interface Persistable {
  [PERSIST](): PersistedValue;
}

function isPersistable(value: unknown): value is Persistable {
  return typeof value === 'object' && value !== null && typeof (value as Persistable)[PERSIST] === 'function';
}

/**
 * The value as plain JSON data: live objects replaced by their markers, functions and
 * `undefined` fields dropped (as `JSON.stringify` does).
 *
 * @example JSON.stringify(toPlainData(actor.getPersistedSnapshot()))
 */
export function toPlainData(value: unknown): unknown {
  const text = JSON.stringify(value, (_key, v: unknown) => (isPersistable(v) ? v[PERSIST]() : v));
  return text === undefined ? undefined : JSON.parse(text);
}

/** Makes the live object a marker stands for, in the process restoring the call. */
export type LiveValueReviver = (marker: PersistedValue) => unknown;

/**
 * A copy of plain data with each marker that has a reviver replaced by the live object the
 * reviver makes; markers without one stay as they are.
 */
export function reviveLiveValues(
  data: unknown,
  revivers: Readonly<Record<string, LiveValueReviver>>,
): unknown {
  if (Array.isArray(data)) return data.map((item) => reviveLiveValues(item, revivers));
  if (typeof data !== 'object' || data === null) return data;
  const marker = '$ringflow' in data ? data.$ringflow : undefined;
  if (typeof marker === 'string') {
    const revive = revivers[marker];
    if (revive) return revive(data as PersistedValue);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) out[key] = reviveLiveValues(value, revivers);
  return out;
}

const registered = new Map<string, (marker: PersistedValue, call: unknown) => unknown>();

/**
 * Declares how a kind of live object is made again from its marker for a restored call (a
 * package whose objects sit in call machines registers its kinds when it loads; the dsl
 * registers its flow host). `call` is the restored call's handle.
 *
 * @example defineLiveValue('flowHost', (_marker, call) => hostFromCall(call as CallHandle));
 */
export function defineLiveValue(
  kind: string,
  revive: (marker: PersistedValue, call: unknown) => unknown,
): void {
  registered.set(kind, revive);
}

/** The revivers registered with {@link defineLiveValue}, bound to a restored call. */
export function registeredRevivers(call: unknown): Record<string, LiveValueReviver> {
  const revivers: Record<string, LiveValueReviver> = {};
  for (const [kind, revive] of registered) revivers[kind] = (marker) => revive(marker, call);
  return revivers;
}
