/**
 * Splits application data into arguments the way the real server's applications do: at each
 * delimiter that is not inside parentheses, square brackets or double quotes; double quotes
 * are removed and a backslash makes the next character literal (and is removed).
 * A trailing delimiter gives a last, empty argument; empty data gives no arguments.
 *
 * `limit` caps the number of arguments: the last one receives the rest of the text unsplit.
 *
 * @example splitArguments('OracleDialplanEvent,foo: bar,baz: qux') // ['OracleDialplanEvent', 'foo: bar', 'baz: qux']
 * @example splitArguments('"a,b",c\\,d') // ['a,b', 'c,d']
 */
export function splitArguments(data: string, delimiter = ',', limit = Number.POSITIVE_INFINITY): string[] {
  const args: string[] = [];
  if (!data) return args;
  let current = '';
  let paren = 0;
  let bracket = 0;
  let quoted = false;
  let i = 0;
  for (; i < data.length; i++) {
    if (args.length === limit - 1) {
      // The last allowed argument takes the rest as written, as the real server does.
      current += data.slice(i);
      i = data.length;
      break;
    }
    const c = data[i]!;
    if (c === '(') paren++;
    else if (c === ')') paren = Math.max(0, paren - 1);
    else if (c === '[') bracket++;
    else if (c === ']') bracket = Math.max(0, bracket - 1);
    else if (c === '"' && delimiter !== '"') {
      quoted = !quoted;
      continue;
    } else if (c === '\\') {
      i++;
      if (i < data.length) current += data[i];
      continue;
    } else if (c === delimiter && paren === 0 && bracket === 0 && !quoted) {
      args.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  args.push(current);
  return args;
}
