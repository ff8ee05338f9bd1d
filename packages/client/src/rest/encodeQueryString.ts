/**
 * Builds a query string from ordered pairs, each key and value encoded with `encodeURIComponent`
 * (space -> `%20`, `,` -> `%2C`, `/` -> `%2F`, `:` -> `%3A`), exactly as real servers receive it.
 * Returns an empty string for no pairs, else the string without the leading `?`.
 *
 * @example
 * encodeQueryString([['source', 'channel:a,channel:b']]); // 'source=channel%3Aa%2Cchannel%3Ab'
 */
export function encodeQueryString(pairs: readonly (readonly [string, string])[]): string {
  let text = '';
  for (let i = 0; i < pairs.length; i++) {
    const [key, value] = pairs[i] as readonly [string, string];
    text += `${i === 0 ? '' : '&'}${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  }
  return text;
}
