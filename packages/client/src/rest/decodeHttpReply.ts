import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import type { TransportResponse } from './RestTransport.ts';

const utf8 = new TextDecoder('utf-8');

function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

function isText(type: string): boolean {
  return type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml');
}

/**
 * Turns raw HTTP reply bytes into a {@link TransportResponse}: JSON bodies parsed, text bodies
 * (the HTML error pages of non-ARI paths) as text, anything else (`audio/wav`) as bytes, an empty
 * body as nothing. A success reply that claims JSON but does not parse is a protocol error; an
 * error reply that does not parse keeps its text, so the caller still sees the status.
 *
 * @example
 * decodeHttpReply(404, { 'content-type': 'application/json' }, bytesOf('{"message":"Channel not found"}'))
 * // { status: 404, headers: {...}, body: { message: 'Channel not found' } }
 */
export function decodeHttpReply(
  status: number,
  headers: Readonly<Record<string, string>>,
  bytes: Uint8Array,
): TransportResponse {
  if (bytes.byteLength === 0) return { status, headers };
  const type = mediaType(headers['content-type']);
  if (isJson(type)) {
    const text = utf8.decode(bytes);
    try {
      return { status, headers, body: JSON.parse(text) };
    } catch (cause) {
      if (status >= 200 && status < 300) {
        throw new RingflowError(
          ErrorCode.PROTOCOL,
          `the server answered ${status} with content-type ${type} but the body is not valid JSON: ${JSON.stringify(text.slice(0, 120))}`,
          { cause },
        );
      }
      return { status, headers, body: text };
    }
  }
  if (isText(type)) return { status, headers, body: utf8.decode(bytes) };
  return { status, headers, binary: bytes };
}
