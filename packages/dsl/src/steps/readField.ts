/**
 * One field of a value whose type the step does not know (an effect's result, a step's scratch
 * data), read by narrowing rather than by a cast: `undefined` when the value is not an object or
 * has no such field.
 *
 * @example
 * readField({ value: '42' }, 'value') // '42'
 * readField(undefined, 'value')       // undefined
 */
export function readField(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const field: unknown = Reflect.get(value, name);
  return field;
}
