import { HttpError } from '@ringflow/client';

/**
 * The status and server message of a typed call that must fail with an HTTP error; throws if it
 * succeeds or fails otherwise, so `expect(await httpFailure(...)).toEqual(...)` cannot pass by accident.
 *
 * @example
 * expect(await httpFailure(rest.channel('nope').answer())).toEqual({ status: 404, message: 'Channel not found' });
 */
export async function httpFailure(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.serverMessage };
    throw error;
  }
  throw new Error('the call succeeded, but an HTTP error was expected');
}
