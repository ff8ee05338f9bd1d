import { ErrorCode, type RestTransport, RingflowError, type TransportResponse } from '@ringflow/client';
import type { InProcessServer } from './InProcessServer.ts';

/** Copies a JSON value as the wire would: the two sides never share objects. */
function overTheWire(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/**
 * A REST transport that hands requests straight to an in-process server (the simulator): no
 * sockets, no HTTP, the same requests and replies. Bodies are copied as JSON both ways, so code
 * that works in process works over the wire.
 *
 * @example
 * const simulator = createSimulator({ clock });
 * const client = createRestClient({
 *   url: 'http://simulator/ari', username: 'u', password: 'p', transport: inProcessRestTransport(simulator),
 * });
 */
export function inProcessRestTransport(server: InProcessServer): RestTransport {
  return {
    async send(request): Promise<TransportResponse> {
      if (request.signal?.aborted) {
        throw new RingflowError(
          ErrorCode.ABORTED,
          `${request.method} ${request.path} was cancelled before it was sent`,
        );
      }
      const reply = await server.handle({
        method: request.method,
        path: request.path,
        query: Object.fromEntries(request.query),
        ...(request.body === undefined ? {} : { body: overTheWire(request.body) }),
      });
      if (request.signal?.aborted) {
        throw new RingflowError(ErrorCode.ABORTED, `${request.method} ${request.path} was cancelled`);
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
      if (reply.binary) {
        headers['content-type'] ??= reply.binary.contentType;
        return { status: reply.status, headers, binary: reply.binary.data };
      }
      if (reply.body !== undefined) headers['content-type'] ??= 'application/json';
      return reply.body === undefined
        ? { status: reply.status, headers }
        : { status: reply.status, headers, body: overTheWire(reply.body) };
    },
  };
}
