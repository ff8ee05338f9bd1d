import { operationKey } from '../description/index.ts';
import type { OperationSpec } from '../description/spec.ts';
import { HttpError } from '../errors/HttpError.ts';
import { notFoundMeansGone } from './notFoundMeansGone.ts';
import type { TransportRequest, TransportResponse } from './RestTransport.ts';
import { scrubCredentials } from './scrubCredentials.ts';

/** Longest server text kept in an error message; HTML error pages are long and say little. */
const MAX_MESSAGE_CHARS = 300;

const utf8 = new TextDecoder('utf-8');

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS)}…` : flat;
}

/**
 * The server's explanation of an error reply: `{"message": ...}` as real servers send it, the
 * rare `{"error": ...}` (originate with an unknown technology), else the body text, truncated.
 */
export function serverMessageOf(reply: TransportResponse): string {
  const { body } = reply;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    const text = record.message ?? record.error;
    if (typeof text === 'string') return scrubCredentials(text);
  }
  if (typeof body === 'string') return scrubCredentials(truncate(body));
  if (body !== undefined) return scrubCredentials(truncate(JSON.stringify(body)));
  if (reply.binary) return scrubCredentials(truncate(utf8.decode(reply.binary)));
  return '';
}

/**
 * The result of an operation from its reply: the parsed JSON for a model, `undefined` for `void`
 * operations and empty replies (204), bytes for `binary` ones (`recordings.getStoredFile`).
 * Error statuses become an {@link HttpError}.
 *
 * @example
 * interpretReply(findOperation('channels', 'answer')!, req, { status: 204, headers: {} }); // undefined
 */
export function interpretReply(
  op: OperationSpec,
  request: TransportRequest,
  reply: TransportResponse,
): unknown {
  if (reply.status >= 200 && reply.status < 300) {
    if (op.returns === 'void') return undefined;
    if (op.returns === 'binary') {
      if (reply.binary) return reply.binary;
      if (reply.body === undefined) return new Uint8Array(0);
      return new TextEncoder().encode(
        typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body),
      );
    }
    return reply.body;
  }
  const serverMessage = serverMessageOf(reply);
  throw new HttpError({
    status: reply.status,
    operation: operationKey(op.resource, op.name),
    method: request.method,
    path: request.path,
    serverMessage,
    body: reply.body ?? reply.binary,
    resourceGone: reply.status === 404 && notFoundMeansGone(op, serverMessage),
  });
}
