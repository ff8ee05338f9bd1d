import { SimError } from '../SimError.ts';
import type { SimRequest, SimResponse, SimulatedServer } from '../transport.ts';

/**
 * Asks the simulated server for a response and never throws: a `SimError` that escaped the core
 * becomes its response, anything else (a bug in the core) a 500 that names the failure, reported
 * to `onError` so it is not lost. The wire must keep serving whatever one request does.
 *
 * @example
 * const response = await callServer(server, { method: 'GET', path: '/channels', query: {} }, console.error);
 */
export async function callServer(
  server: SimulatedServer,
  request: SimRequest,
  onError: (error: unknown) => void,
): Promise<SimResponse> {
  try {
    const response = await server.handle(request);
    if (!Number.isInteger(response?.status) || response.status < 100 || response.status > 599) {
      throw new Error(
        `the simulated server answered ${request.method} ${request.path} without a valid status`,
      );
    }
    return response;
  } catch (error) {
    if (error instanceof SimError)
      return { status: error.status, body: error.body ?? { message: error.message } };
    onError(error);
    const reason = error instanceof Error ? error.message : String(error);
    return { status: 500, body: { message: `Internal error in the simulator: ${reason}` } };
  }
}
