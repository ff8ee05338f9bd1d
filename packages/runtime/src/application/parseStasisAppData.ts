/** The application a channel is in and the arguments it entered with, read from its snapshot. */
export interface StasisAppData {
  readonly app: string;
  readonly args: readonly string[];
}

/**
 * The most arguments `Stasis()` takes after the application name (`MAX_ARGS` in the server's
 * app_stasis.c); any further text stays in the last argument, unsplit.
 */
const MAX_STASIS_ARGS = 128;

/**
 * Reads `Stasis(app,args...)` from a channel snapshot's `dialplan` (`app_name`, `app_data`) and
 * splits the data as the server's `Stasis` application does (`AST_STANDARD_APP_ARGS`), so the
 * arguments equal the ones its StasisStart carries: split at commas outside parentheses, square
 * brackets and double quotes; double quotes are removed and a backslash makes the next character
 * literal (and is removed); a trailing comma gives a last, empty argument.
 * Returns undefined when the channel is not in a Stasis application.
 *
 * The snapshot shows the data after variable substitution and before splitting: a real server
 * lists `{ app_name: 'Stasis', app_data: 'demo-app,alpha,beta' }` for a channel that entered with
 * args `['alpha', 'beta']`, also for channels originated into an application.
 *
 * @example
 * parseStasisAppData({ app_name: 'Stasis', app_data: 'ivr,"a,b",c' }) // { app: 'ivr', args: ['a,b', 'c'] }
 */
export function parseStasisAppData(dialplan: {
  readonly app_name?: unknown;
  readonly app_data?: unknown;
}): StasisAppData | undefined {
  if (dialplan.app_name !== 'Stasis' || typeof dialplan.app_data !== 'string') return undefined;
  const [app, ...args] = separateArguments(dialplan.app_data, 1 + MAX_STASIS_ARGS);
  if (app === undefined || app === '') return undefined;
  return { app, args };
}

/** The server's argument separation with `remove_chars` set, at most `limit` arguments. */
function separateArguments(data: string, limit: number): string[] {
  const args: string[] = [];
  if (data === '') return args;
  let current = '';
  let paren = 0;
  let bracket = 0;
  let quoted = false;
  for (let i = 0; i < data.length; i++) {
    if (args.length === limit - 1) {
      current += data.slice(i);
      break;
    }
    const c = data[i]!;
    if (c === '(') paren++;
    else if (c === ')') paren = Math.max(0, paren - 1);
    else if (c === '[') bracket++;
    else if (c === ']') bracket = Math.max(0, bracket - 1);
    else if (c === '"') {
      quoted = !quoted;
      continue;
    } else if (c === '\\') {
      i++;
      if (i < data.length) current += data[i];
      continue;
    } else if (c === ',' && paren === 0 && bracket === 0 && !quoted) {
      args.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  args.push(current);
  return args;
}
