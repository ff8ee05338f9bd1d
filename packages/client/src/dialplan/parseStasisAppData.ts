import { splitArguments } from './splitArguments.ts';

/** The application a channel is in and the arguments it entered with, read from its snapshot. */
export interface StasisAppData {
  readonly app: string;
  readonly args: readonly string[];
}

/**
 * The most arguments `Stasis()` takes after the application name (`MAX_ARGS` in the server's
 * app_stasis.c); any further text stays in the last argument, unsplit.
 */
export const MAX_STASIS_ARGS = 128;

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
  const [app, ...args] = splitArguments(dialplan.app_data, ',', 1 + MAX_STASIS_ARGS);
  if (app === undefined || app === '') return undefined;
  return { app, args };
}
