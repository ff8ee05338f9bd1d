import { ErrorCode, RingflowError } from '../errors/index.ts';

/** Longest server text kept on the error (a proxy's error page can be large). */
const MAX_BODY = 2000;

/**
 * The server answered the WebSocket upgrade with an HTTP status instead of switching protocols:
 * 401 for a wrong or missing password, 400 when no application name was given, 404 when the URL
 * does not point at the interface root. The message says how to fix it.
 *
 * @example
 * stream.problems$.subscribe((p) => {
 *   if (p.error instanceof HandshakeRejectedError && p.error.status === 401) alertOps(p.error.message);
 * });
 */
export class HandshakeRejectedError extends RingflowError {
  override name = 'HandshakeRejectedError';
  /** HTTP status of the refusal. */
  readonly status: number;
  /** What the server said, as text (the `message` of a JSON body, or an HTML page reduced to text). */
  readonly serverMessage: string;
  /** The URL that was refused, with any password hidden. */
  readonly url: string;

  constructor(status: number, body: string, url: string) {
    const serverMessage = serverText(body);
    super(
      ErrorCode.HTTP_ERROR,
      `${describe(status, url)}${serverMessage ? ` Server said: "${serverMessage}".` : ''}`,
    );
    this.status = status;
    this.serverMessage = serverMessage;
    this.url = url;
  }
}

function describe(status: number, url: string): string {
  const refused = `The server refused the event stream ${url} with HTTP ${status}:`;
  switch (status) {
    case 401:
      return `${refused} the username or password is wrong or missing. Check the \`username\` and \`password\` options against the server's ARI users (ari.conf).`;
    case 403:
      return `${refused} this user may not open the event stream. Use an ARI user with read/write access.`;
    case 400:
      return `${refused} the request is incomplete. Give at least one application name in \`apps\`.`;
    case 404:
      return `${refused} nothing serves events there. Point \`url\` at the interface root (for example http://127.0.0.1:8088/ari) and check that the server has ARI enabled.`;
    default:
      return `${refused} the server could not accept the connection now; it will be retried.`;
  }
}

/** `{"message":"..."}` -> the message; an HTML error page -> its text; otherwise the body trimmed. */
function serverText(body: string): string {
  const text = body.trim();
  if (text === '') return '';
  try {
    const parsed: unknown = JSON.parse(text);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'message' in parsed &&
      typeof parsed.message === 'string'
    ) {
      return parsed.message.slice(0, MAX_BODY);
    }
  } catch {
    // Not JSON: fall through to the HTML and plain-text forms.
  }
  const paragraph = /<p>([\s\S]*?)<\/p>/i.exec(text)?.[1];
  const plain = (paragraph ?? text)
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.slice(0, MAX_BODY);
}
