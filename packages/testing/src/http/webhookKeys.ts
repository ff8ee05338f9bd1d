/**
 * The keys of a scenario's `http:` answers and `expect: { http }` checks: `"METHOD URL"`, what a
 * flow's `http` step or webhook tool sends. Matching rules (docs: packages/testing/README.md):
 * - the method is one a flow sends (GET, POST, PUT, PATCH, DELETE), written in capitals, and must
 *   be the request's;
 * - a URL matches the request's URL exactly: scheme, host, port and path as written, and the same
 *   query parameters with the same values, in any order (values compared decoded);
 * - a URL ending in `*` is a prefix: it matches every URL that begins with the text before the `*`
 *   (compared with the URL as sent, percent-encoded);
 * - an exact key wins over a prefix, a longer prefix over a shorter one.
 */

/** The methods a flow's requests use (the `http` step's `method`). */
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface WebhookKey {
  /** As written: `GET https://crm.example/orders?caller=5551234`. */
  readonly text: string;
  readonly method: string;
  /** An exact URL (parsed), or a prefix (`*` removed). */
  readonly url: { readonly exact: URL } | { readonly prefix: string };
}

const EXAMPLE = '"GET https://crm.example/orders" (a * ending the URL matches every URL it begins)';

/**
 * Reads a key; a string saying what is wrong when it is not one.
 * @example parseWebhookKey('POST https://crm.example/tickets') // { method: 'POST', url: { exact: URL } }
 */
export function parseWebhookKey(text: string): WebhookKey | string {
  const parts = /^(\S+)\s+(\S+)$/.exec(text.trim());
  if (!parts) return `"${text}" is not a request: expected METHOD URL, e.g. ${EXAMPLE}`;
  const [, method, url] = parts as unknown as [string, string, string];
  if (!(WEBHOOK_METHODS as readonly string[]).includes(method)) {
    const upper = method.toUpperCase();
    const hint = (WEBHOOK_METHODS as readonly string[]).includes(upper) ? ` (write it ${upper})` : '';
    return `unknown method "${method}"${hint}: expected ${WEBHOOK_METHODS.join(', ')}`;
  }
  if (!/^https?:\/\//.test(url)) return `"${url}" is not an http:// or https:// URL`;
  const star = url.indexOf('*');
  if (star >= 0 && star < url.length - 1)
    return `"${url}": a * may only end the URL (it then matches every URL beginning with what comes before it)`;
  if (star >= 0) return { text, method, url: { prefix: url.slice(0, -1) } };
  try {
    return { text, method, url: { exact: new URL(url) } };
  } catch {
    return `"${url}" is not a valid URL`;
  }
}

/** The query parameters, decoded and sorted: `?b=2&a=1` and `?a=1&b=2` are the same. */
function queryOf(url: URL): string {
  return [...url.searchParams]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .sort()
    .join('&');
}

/**
 * What an exact key answers, whatever the query's order: two keys with the same form answer the
 * same requests. A prefix's form is itself.
 */
export function keyForm(key: WebhookKey): string {
  if ('prefix' in key.url) return `${key.method} ${key.url.prefix}*`;
  const u = key.url.exact;
  return `${key.method} ${u.origin}${u.pathname}?${queryOf(u)}`;
}

/** Whether a request (its method, its URL as sent) is one the key names. */
export function keyMatches(key: WebhookKey, method: string, url: string): boolean {
  if (key.method !== method) return false;
  if ('prefix' in key.url) return url.startsWith(key.url.prefix);
  let sent: URL;
  try {
    sent = new URL(url);
  } catch {
    return false;
  }
  const want = key.url.exact;
  return sent.origin === want.origin && sent.pathname === want.pathname && queryOf(sent) === queryOf(want);
}

/** The key that answers a request: an exact one first, else the longest prefix. */
export function answeringKey<K extends WebhookKey>(
  keys: readonly K[],
  method: string,
  url: string,
): K | undefined {
  const matching = keys.filter((k) => keyMatches(k, method, url));
  const exact = matching.find((k) => 'exact' in k.url);
  if (exact) return exact;
  const length = (k: K) => ('prefix' in k.url ? k.url.prefix.length : 0);
  return matching.sort((a, b) => length(b) - length(a))[0];
}
