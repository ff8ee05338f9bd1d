/** The path and query of a request target, as the simulated server wants them. */
export interface RequestTarget {
  /** Path exactly as sent (not decoded): `/ari/channels/abc`. */
  readonly path: string;
  /** Decoded query parameters; a repeated key keeps its last value, as the real server does. */
  readonly query: Record<string, string>;
}

/**
 * Splits `req.url` into path and query. Accepts origin-form (`/ari/x?y=1`) and absolute-form
 * (`http://host/ari/x`) targets; returns `undefined` for anything else (`*`, garbage), which the
 * caller answers with 400. Does not use `new URL(target, base)` on purpose: it would read
 * `//evil/ari` as a host name.
 *
 * @example
 * parseRequestTarget('/ari/channels?app=a&app=b'); // { path: '/ari/channels', query: { app: 'b' } }
 */
export function parseRequestTarget(target: string): RequestTarget | undefined {
  let rest = target;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(rest);
  if (absolute) rest = rest.slice(absolute[0].length) || '/';
  if (!rest.startsWith('/')) return undefined;
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const path = q >= 0 ? rest.slice(0, q) : rest;
  return { path, query: q >= 0 ? parseQueryString(rest.slice(q + 1)) : {} };
}

/** `a=1&b=x%20y` -> `{a: '1', b: 'x y'}`; malformed escapes are kept as written rather than rejected. */
export function parseQueryString(text: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) query[key] = value;
  return query;
}
