import { ErrorCode, RingflowError } from '../errors/index.ts';
import type { EventTransportRequest } from './EventTransport.ts';

/** Where the event stream is and who asks for it. */
export interface EventStreamTarget {
  /**
   * The interface root over HTTP or WebSocket: `http://127.0.0.1:8088/ari` (http becomes ws,
   * https becomes wss). A URL without a path gets the usual root `/ari`.
   */
  readonly baseUrl: string;
  /** One or more application names; one socket carries them all (`app=a,b`). */
  readonly apps: string | readonly string[];
  /** Subscribe the applications to every event of the server, not only their own resources. */
  readonly subscribeAll?: boolean;
  readonly username?: string;
  readonly password?: string;
  /**
   * How credentials travel: `'header'` (default) sends `Authorization: Basic ...`; `'query'` puts
   * `api_key=user:password` in the URL, for clients that cannot set headers. Prefer the header:
   * URLs end up in proxy logs.
   */
  readonly auth?: 'header' | 'query';
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
 * buildEventStreamRequest({ baseUrl: 'http://127.0.0.1:8088/ari', apps: ['a', 'b'],
 *   username: 'demo', password: 'demo' }).url;
 * // 'ws://127.0.0.1:8088/ari/events?app=a,b'  (+ an Authorization header)
 */
export function buildEventStreamRequest(target: EventStreamTarget): EventStreamRequest {
  let url: URL;
  try {
    url = new URL(target.baseUrl);
  } catch (cause) {
    throw new RingflowError(
      ErrorCode.CONFIG,
      `options.baseUrl ("${target.baseUrl}") is not a URL: expected the interface root, e.g. http://127.0.0.1:8088/ari.`,
      { cause },
    );
  }
  const schemes: Record<string, string> = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' };
  const scheme = schemes[url.protocol];
  if (!scheme) {
    throw configError(`options.baseUrl uses "${url.protocol}": expected http, https, ws or wss.`);
  }
  const apps = normaliseApps(target.apps);
  // Credentials written in the URL (http://user:pass@host/ari) count when the options give none.
  const fromUrl = url.username !== '' && target.username === undefined;
  const username = fromUrl ? decodeURIComponent(url.username) : target.username;
  const password = fromUrl ? decodeURIComponent(url.password) : target.password;
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
  const auth = target.auth ?? 'header';

  const root = url.pathname.replace(/\/+$/, '') || '/ari';
  const existing = url.search.replace(/^\?/, '');
  const query = [existing, `app=${apps.map(encodeQueryValue).join(',')}`];
  let redactedQuery = [...query];
  if (credentials && auth === 'query') {
    query.push(`api_key=${encodeQueryValue(`${credentials.username}:${credentials.password}`)}`);
    redactedQuery.push(`api_key=${encodeQueryValue(credentials.username)}:***`);
  }
  if (target.subscribeAll) {
    query.push('subscribeAll=true');
    redactedQuery.push('subscribeAll=true');
  }
  redactedQuery = redactedQuery.filter(Boolean);
  const base = `${scheme}//${url.host}${root}/events`;
  const headers: Record<string, string> = {};
  if (credentials && auth === 'header') {
    headers.Authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  }
  return {
    url: `${base}?${query.filter(Boolean).join('&')}`,
    redactedUrl: `${base}?${redactedQuery.join('&')}`,
    headers,
    apps,
    subscribeAll: target.subscribeAll ?? false,
    ...(credentials ? { credentials } : {}),
  };
}
