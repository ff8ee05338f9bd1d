/**
 * Builds a query string from ordered pairs, each key and value encoded with `encodeURIComponent`
 * (space -> `%20`, `,` -> `%2C`, `/` -> `%2F`, `:` -> `%3A`), exactly as real servers receive it.
 * Returns an empty string for no pairs, else the string without the leading `?`.
 *
 * @example
 * encodeQueryString([['source', 'channel:a,channel:b']]); // 'source=channel%3Aa%2Cchannel%3Ab'
 */
export function encodeQueryString(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}
