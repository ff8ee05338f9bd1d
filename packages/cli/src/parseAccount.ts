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
