/**
 * CORS as the traced server does it. The request header must be spelled exactly `Origin`: the
 * server looks headers up case-sensitively, so a lowercase `origin` gets no CORS headers at all.
 * Node lowercases `req.headers`, hence the raw header list.
 */

/** Value of a header whose name matches `name` exactly (case-sensitive), from Node's `rawHeaders`. */
export function exactHeader(rawHeaders: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i] === name) return rawHeaders[i + 1];
  }
  return undefined;
}

/**
 * Headers for a request from an allowed origin: `Access-Control-Allow-Origin` (the origin, echoed)
 * and `Access-Control-Allow-Credentials: true`. Empty when there is no exact `Origin` header or the
 * origin is not allowed (`*` allows every origin).
 *
 * @example
 * corsHeaders(['Origin', 'http://example.com'], ['*']);
 * // { 'Access-Control-Allow-Origin': 'http://example.com', 'Access-Control-Allow-Credentials': 'true' }
 */
export function corsHeaders(
  rawHeaders: readonly string[],
  allowedOrigins: readonly string[],
): Record<string, string> {
  const origin = exactHeader(rawHeaders, 'Origin');
  if (origin === undefined || !(allowedOrigins.includes('*') || allowedOrigins.includes(origin))) return {};
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true' };
}

/**
 * The extra headers of an answered preflight (`OPTIONS` carrying an exact `Origin` and
 * `Access-Control-Request-Method` that the resource allows): the allowed methods, and the requested
 * headers echoed back.
 */
export function preflightHeaders(
  rawHeaders: readonly string[],
  allowedOrigins: readonly string[],
  allow: readonly string[],
): Record<string, string> {
  if (Object.keys(corsHeaders(rawHeaders, allowedOrigins)).length === 0) return {};
  const method = exactHeader(rawHeaders, 'Access-Control-Request-Method');
  if (method === undefined || !allow.includes(method.toUpperCase())) return {};
  const out: Record<string, string> = { 'Access-Control-Allow-Methods': allow.join(',') };
  const headers = exactHeader(rawHeaders, 'Access-Control-Request-Headers');
  if (headers !== undefined) out['Access-Control-Allow-Headers'] = headers;
  return out;
}
