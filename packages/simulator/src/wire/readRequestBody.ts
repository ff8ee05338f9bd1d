import type { IncomingMessage } from 'node:http';
import { parseJsonBody } from './parseJsonBody.ts';
import { parseQueryString } from './parseRequestTarget.ts';

/** What a request body contributes: a JSON value, or form fields that count as query parameters. */
export interface RequestBody {
  readonly body?: unknown;
  readonly bodyParseError?: boolean;
  /** Fields of an `application/x-www-form-urlencoded` body (the real server treats them as parameters). */
  readonly form?: Record<string, string>;
  /** Set when the body was larger than the limit; nothing else is set then. */
  readonly tooLarge?: boolean;
}

/**
 * Reads a request body completely and interprets it like the real server: JSON when the content
 * type says JSON (or when none is given and a body was sent), form fields for a form content
 * type, ignored otherwise. Invalid JSON (or JSON that is not an object or array) is reported as `bodyParseError` for the server to answer.
 *
 * @example
 * const { body, bodyParseError } = await readRequestBody(req, 1 << 20);
 */
export async function readRequestBody(req: IncomingMessage, limitBytes: number): Promise<RequestBody> {
  // Most ARI requests carry no body (parameters in the query): without Content-Length or
  // Transfer-Encoding an HTTP/1.1 request has none, so skip the stream iterator (~2% of the
  // simulator process in `npm run bench`) and just let the request end.
  const { 'content-length': length, 'transfer-encoding': encoding } = req.headers;
  if (encoding === undefined && (length === undefined || length === '0')) {
    req.resume();
    return {};
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    // Keep draining so the client sees our answer instead of a reset connection.
    if (size <= limitBytes) chunks.push(buffer);
  }
  if (size > limitBytes) return { tooLarge: true };
  const text = Buffer.concat(chunks).toString('utf8');
  return interpretBody(text, req.headers['content-type']);
}

/** Interprets body text under a content type (shared with REST requests sent over the WebSocket). */
export function interpretBody(text: string, contentType: string | undefined): RequestBody {
  if (text.trim() === '') return {};
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return { form: parseQueryString(text) };
  if (type !== '' && type !== 'application/json') return {};
  const body = parseJsonBody(text);
  return body === undefined ? { bodyParseError: true } : { body };
}
