import type { IncomingMessage } from 'node:http';

/**
 * Size of the real server's request-line buffer (`MAX_HTTP_LINE_LENGTH` in main/http.c): the line
 * is read into it with its CRLF and the terminating NUL, so a line of 4096 bytes or more does not
 * fit and is answered 400 `Request line too long` (an HTML page), and the connection is closed.
 */
export const MAX_HTTP_LINE_LENGTH = 4096;

/**
 * The most the real server reads of a request head: the request line and at most 100 header
 * lines (`MAX_HTTP_REQUEST_HEADERS`), each read into a MAX_HTTP_LINE_LENGTH buffer.
 */
export const MAX_HEADER_SECTION_BYTES = 101 * MAX_HTTP_LINE_LENGTH;

/**
 * Whether the request line (`METHOD target HTTP/1.1\r\n`) is too long for the real server.
 *
 * @example
 * requestLineTooLong(req); // true for `GET /ari/channels?x=<5,000 characters>`
 */
export function requestLineTooLong(req: Pick<IncomingMessage, 'method' | 'url' | 'httpVersion'>): boolean {
  const line = `${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}\r\n`;
  return Buffer.byteLength(line, 'latin1') >= MAX_HTTP_LINE_LENGTH;
}
