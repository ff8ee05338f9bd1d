/**
 * How deep a JSON body may nest: the real server reads bodies with jansson, whose parser refuses
 * more than `JSON_PARSER_MAX_DEPTH` (2048) nested arrays and objects.
 */
export const MAX_JSON_DEPTH = 2048;

/**
 * Parses a JSON request body as the real server does (`ast_http_get_json`, jansson's `json_loadb`
 * without `JSON_DECODE_ANY`): the text must be an object or an array, nested at most
 * MAX_JSON_DEPTH deep. Anything else (`null`, a bare number or string, invalid text) gives
 * `undefined`, which the server answers with 400 `Error parsing request body`.
 *
 * @example
 * parseJsonBody('{"a":1}'); // { a: 1 }
 * parseJsonBody('null'); // undefined
 */
export function parseJsonBody(text: string): object | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  return nestingDepth(text) > MAX_JSON_DEPTH ? undefined : value;
}

/** The deepest nesting of brackets and braces in JSON text, outside strings. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
