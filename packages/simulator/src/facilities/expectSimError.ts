import { expect } from 'vitest';
import { SimError } from '../SimError.ts';

/**
 * Test helper: asserts that `action` throws a SimError with exactly this status and message (the
 * real server's `{"message": ...}`).
 *
 * @example
 * expectSimError(() => modules.load('no_such_module'), 409, 'Module load declined');
 */
export function expectSimError(action: () => unknown, status: number, message: string): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected SimError ${status} '${message}'`).toBeInstanceOf(SimError);
  const error = thrown as SimError;
  expect({ status: error.status, message: error.message }).toEqual({ status, message });
}
