import { STATUS_CODES } from 'node:http';
import type { SimResponse } from '../transport.ts';

/** A response ready for the socket: status, headers (without framing ones) and body bytes. */
export interface SerializedResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/**
 * Turns a `SimResponse` into bytes: `binary` as is with its content type, `body` as compact JSON
 * (`application/json`), nothing for a missing body and for statuses that cannot carry one.
 *
 * @example
 * serializeResponse({ status: 404, body: { message: 'Channel not found' } }).body.toString();
 * // '{"message":"Channel not found"}'
 */
export function serializeResponse(response: SimResponse): SerializedResponse {
  const headers: Record<string, string> = { ...response.headers };
  let body = Buffer.alloc(0);
  const bodiless = response.status === 204 || response.status === 304 || response.status < 200;
  if (!bodiless && response.binary) {
    headers['Content-Type'] = response.binary.contentType;
    body = Buffer.from(response.binary.data);
  } else if (!bodiless && response.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = Buffer.from(JSON.stringify(response.body), 'utf8');
  }
  return { status: response.status, headers, body };
}

/** `Not Found` for 404; the standard reason phrase of a status. */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}

/** The value of a header in a header record, whatever the case of its name. */
export function headerValue(
  headers: Readonly<Record<string, string>> | undefined,
  name: string,
): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}
