import { UsageError } from './Command.ts';

/** An account given on the command line as `name:password`. */
export interface Account {
  readonly username: string;
  readonly password: string;
}

/**
 * Reads `name:password` (the password may itself contain `:`).
 *
 * @example
 * parseAccount('demo:demo', '--user'); // { username: 'demo', password: 'demo' }
 */
export function parseAccount(text: string, option: string): Account {
  const colon = text.indexOf(':');
  if (colon <= 0) {
    throw new UsageError(`${option}: expected name:password (for example demo:demo), got '${text}'`);
  }
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/**
 * The account of a credentials option, in the one form every command takes, `--user
 * name:password` (as curl -u), or in its alias, two options `--user name --password pw`.
 * Undefined when neither is given. The same for `--listen-user`, `--http-user`, ...
 *
 * @example
 * accountOption('demo:secret', undefined); // { username: 'demo', password: 'secret' }
 * accountOption('demo', 'secret');         // the same, through the alias
 * accountOption('demo', undefined);        // UsageError: --user: expected name:password ...
 */
export function accountOption(
  user: string | undefined,
  password: string | undefined,
  option = '--user',
  passwordOption = option.replace(/user$/, 'password'),
): Account | undefined {
  if (password === undefined) return user === undefined ? undefined : parseAccount(user, option);
  if (user === undefined)
    throw new UsageError(`${passwordOption} goes with ${option}; give both as ${option} name:password`);
  if (user.includes(':'))
    throw new UsageError(
      `${option} '${user}' already holds a password: give ${option} name:password, or ${option} name ${passwordOption} password, not both`,
    );
  if (user === '') throw new UsageError(`${option}: expected name:password (for example demo:demo), got ''`);
  return { username: user, password };
}
