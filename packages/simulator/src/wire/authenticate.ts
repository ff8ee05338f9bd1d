import { timingSafeEqual } from 'node:crypto';

/** An account allowed to use the interface. Read-only accounts may only GET (and OPTIONS). */
export interface WireUser {
  readonly username: string;
  readonly password: string;
  readonly readOnly?: boolean;
}

/**
 * Finds the account a request authenticates as: the `Authorization: Basic ...` header when there
 * is one, otherwise the `api_key=user:password` query parameter (browsers' WebSocket API cannot set
 * headers). Returns `undefined` for missing or wrong credentials, never saying which part was wrong.
 *
 * @example
 * authenticate('Basic ZGVtbzpkZW1v', undefined, [{ username: 'demo', password: 'demo' }]); // the demo user
 * authenticate(undefined, 'demo:demo', users); // the same user, from the query
 */
export function authenticate(
  authorization: string | undefined,
  apiKey: string | undefined,
  users: readonly WireUser[],
): WireUser | undefined {
  const presented = authorization !== undefined ? basicCredentials(authorization) : apiKey;
  if (presented === undefined) return undefined;
  const colon = presented.indexOf(':');
  if (colon < 0) return undefined;
  const username = presented.slice(0, colon);
  const password = presented.slice(colon + 1);
  const user = users.find((u) => u.username === username);
  return user && sameSecret(user.password, password) ? user : undefined;
}

function basicCredentials(header: string): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  return Buffer.from(match[1]!, 'base64').toString('utf8');
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  // Compare in constant time so response timing does not reveal how much of a password matched.
  return a.length === b.length && timingSafeEqual(a, b);
}
