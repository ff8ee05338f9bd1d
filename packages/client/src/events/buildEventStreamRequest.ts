import { ErrorCode, RingflowError } from '../errors/index.ts';
import type { EventTransportRequest } from './EventTransport.ts';

/** Where the event stream is and who asks for it. */
export interface EventStreamTarget {
  /**
   * The interface root, as for the REST client: `http://127.0.0.1:8088/ari` (http becomes ws,
   * https becomes wss; ws and wss are taken as they are). A URL without a path gets the usual
   * root `/ari`. No credentials, query or fragment in it.
   */
  readonly url: string;
  /** One or more application names; one socket carries them all (`app=a,b`). */
  readonly apps: string | readonly string[];
  /** Subscribe the applications to every event of the server, not only their own resources. */
  readonly subscribeAll?: boolean;
  readonly username?: string;
  readonly password?: string;
  /**
   * How credentials travel (as for the REST client): `'basic'` (default) sends
   * `Authorization: Basic ...`; `'api_key'` puts `api_key=user:password` in the URL, for
   * WebSocket clients that cannot set headers. Prefer `'basic'`: URLs end up in proxy logs.
   */
  readonly auth?: 'basic' | 'api_key';
}

/** A connection request plus the URL to show in states and errors (password hidden). */
export interface EventStreamRequest extends EventTransportRequest {
  readonly redactedUrl: string;
}

function configError(message: string): RingflowError {
  return new RingflowError(ErrorCode.CONFIG, message);
}

/** Percent-encodes a query value, keeping `:` readable as real servers and their logs show it. */
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ':');
}

function normaliseApps(apps: string | readonly string[]): string[] {
  const list = typeof apps === 'string' ? [apps] : [...apps];
  if (list.length === 0) {
    throw configError("options.apps is empty: give at least one application name, e.g. apps: ['ivr'].");
  }
  list.forEach((app, index) => {
    const where = typeof apps === 'string' ? 'options.apps' : `options.apps[${index}]`;
    if (typeof app !== 'string' || app.trim() === '') {
      throw configError(`${where} is empty: each application needs a name, e.g. 'ivr'.`);
    }
    if (app.includes(',')) {
      throw configError(
        `${where} ("${app}") contains a comma, which separates names in the URL: pass the names as separate items.`,
      );
    }
  });
  return list;
}

/**
 * Builds the WebSocket URL and headers of an event stream, the way real servers expect them:
 * `ws://host:8088/ari/events?app=a,b&api_key=user:password&subscribeAll=true`.
 * Throws a `CONFIG` RingflowError naming the option when the target is unusable.
 *
 * @example
 * buildEventStreamRequest({ url: 'http://127.0.0.1:8088/ari', apps: ['a', 'b'],
 *   username: 'demo', password: 'demo' }).url;
 * // 'ws://127.0.0.1:8088/ari/events?app=a,b'  (+ an Authorization header)
 */
export function buildEventStreamRequest(target: EventStreamTarget): EventStreamRequest {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch (cause) {
    throw new RingflowError(
      ErrorCode.CONFIG,
      `options.url (${JSON.stringify(target.url)}) is not a URL: expected the interface root, e.g. http://127.0.0.1:8088/ari.`,
      { cause },
    );
  }
  const schemes: Record<string, string> = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' };
  const scheme = schemes[url.protocol];
  if (!scheme) {
    throw configError(`options.url uses "${url.protocol}": expected http, https, ws or wss.`);
  }
  if (url.username || url.password) {
    throw configError(
      'options.url must not contain credentials (they would be logged with it): pass them as username and password.',
    );
  }
  if (url.search || url.hash) {
    throw configError(
      'options.url must be the interface root without ?query or #fragment: the stream adds its own query.',
    );
  }
  const apps = normaliseApps(target.apps);
  const { username, password } = target;
  if ((username === undefined) !== (password === undefined)) {
    throw configError(
      'options.username and options.password go together: give both, or neither for a server without authentication.',
    );
  }
  if (username?.includes(':')) {
    throw configError(
      'options.username contains ":", which separates user and password in Basic auth and api_key.',
    );
  }
  const credentials = username !== undefined && password !== undefined ? { username, password } : undefined;
  const auth = target.auth ?? 'basic';
  if (auth !== 'basic' && auth !== 'api_key') {
    throw configError(`options.auth must be 'basic' or 'api_key', got ${JSON.stringify(auth)}.`);
  }

  const root = url.pathname.replace(/\/+$/, '') || '/ari';
  const query = [`app=${apps.map(encodeQueryValue).join(',')}`];
  const redactedQuery = [...query];
  if (credentials && auth === 'api_key') {
    query.push(`api_key=${encodeQueryValue(`${credentials.username}:${credentials.password}`)}`);
    redactedQuery.push(`api_key=${encodeQueryValue(credentials.username)}:***`);
  }
  if (target.subscribeAll) {
    query.push('subscribeAll=true');
    redactedQuery.push('subscribeAll=true');
  }
  const base = `${scheme}//${url.host}${root}/events`;
  const headers: Record<string, string> = {};
  if (credentials && auth === 'basic') {
    headers.Authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  }
  return {
    url: `${base}?${query.join('&')}`,
    redactedUrl: `${base}?${redactedQuery.join('&')}`,
    headers,
    apps,
    subscribeAll: target.subscribeAll ?? false,
    ...(credentials ? { credentials } : {}),
  };
}
