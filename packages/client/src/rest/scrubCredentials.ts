/**
 * Removes credentials from text that may end up in a log or an error message: the value of an
 * `api_key` query parameter and of a Basic `Authorization` header.
 *
 * @example
 * scrubCredentials('GET /ari/channels?api_key=demo:secret'); // 'GET /ari/channels?api_key=***'
 */
export function scrubCredentials(text: string): string {
  return text.replace(/(api_key=)[^&\s"'#)<>]*/gi, '$1***').replace(/(\bBasic\s+)[A-Za-z0-9+/=]+/g, '$1***');
}
