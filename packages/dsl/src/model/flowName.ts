/**
 * The one rule for every name a flow defines: states, prompts, inputs, variables (`vars`, `set`,
 * `as`), subflows and queues. Letters, digits, `_` and `-`, starting with a letter or `_`: a
 * name is also an XState key (no dots, no spaces) and reads in expressions as `vars.ask_zip`,
 * or with brackets when it has a `-`: `vars['ask-zip']`.
 */
export const FLOW_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** How a name of that rule is described in messages: `a state name (letters, ...)`. */
export function flowNameHint(what: string): string {
  return `${what} name (letters, digits, _ and -, starting with a letter or _)`;
}

/**
 * How an expression reads a name under a root: `vars.tries`, or `vars['ask-zip']` when the
 * name is not an identifier (a name never holds a quote).
 * @example readName('vars', 'ask-zip') // "vars['ask-zip']"
 */
export function readName(root: string, name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `${root}.${name}` : `${root}['${name}']`;
}
