import type { ResolvedLocation } from './Dialplan.ts';
import type { DialplanHost } from './DialplanHost.ts';
import type { VariableScope } from './substituteVariables.ts';

/**
 * Variables and functions as the dialplan of one channel sees them.
 *
 * Reading `${NAME}`: `EXTEN`, `CONTEXT`, `PRIORITY` come from the current location; then the
 * channel's variables; then the global variables (as on the real server).
 * Functions known here: `CALLERID(name|num|number|all)`, `GLOBAL(x)`, `LEN(text)`,
 * `ISNULL(text)`, `EXISTS(text)`, `IF(cond?a:b)`, `TOUPPER(text)`, `TOLOWER(text)`;
 * any other goes to the host's optional `readFunction`.
 */
export function createVariableScope(
  host: DialplanHost,
  location: ResolvedLocation,
  warn: (message: string) => void,
): VariableScope {
  return {
    variable(name) {
      if (name === 'EXTEN') return location.exten;
      if (name === 'CONTEXT') return location.context;
      if (name === 'PRIORITY') return String(location.priority);
      return host.getVariable(name) ?? host.getGlobal(name);
    },
    func(name, args) {
      switch (name.toUpperCase()) {
        case 'CALLERID':
          return readCallerId(host, args, warn);
        case 'GLOBAL':
          return host.getGlobal(args.trim());
        case 'LEN':
          return String(args.length);
        case 'ISNULL':
          return args === '' ? '1' : '0';
        case 'EXISTS':
          return args === '' ? '0' : '1';
        case 'TOUPPER':
          return args.toUpperCase();
        case 'TOLOWER':
          return args.toLowerCase();
        case 'IF':
          return readIf(args);
        default: {
          const value = host.readFunction?.(name, args);
          if (value === undefined && !host.readFunction) {
            warn(`function ${name}() is not simulated; it reads as ""`);
          }
          return value;
        }
      }
    },
    warn,
  };
}

function readCallerId(host: DialplanHost, args: string, warn: (message: string) => void): string | undefined {
  const { name, number } = host.getCallerId();
  switch (args.trim().toLowerCase()) {
    case 'name':
      return name;
    case 'num':
    case 'number':
      return number;
    case 'all':
      return name ? `"${name}" <${number}>` : number ? `<${number}>` : '';
    default:
      warn(`CALLERID(${args}): the simulator knows CALLERID(name), CALLERID(num) and CALLERID(all)`);
      return undefined;
  }
}

/** IF(condition?true-value:false-value), either value optional. */
function readIf(args: string): string {
  const question = args.indexOf('?');
  if (question < 0) return '';
  const condition = args.slice(0, question).trim();
  const branches = args.slice(question + 1);
  const colon = branches.indexOf(':');
  const ifTrue = colon < 0 ? branches : branches.slice(0, colon);
  const ifFalse = colon < 0 ? '' : branches.slice(colon + 1);
  return isTrueCondition(condition) ? ifTrue : ifFalse;
}

/**
 * The real server's truth rule for conditions (GotoIf, IF): empty is false; text starting
 * with a digit is true when its leading number is not zero; any other text is true.
 *
 * @example isTrueCondition('0') // false
 * @example isTrueCondition('no') // true
 */
export function isTrueCondition(condition: string): boolean {
  const text = condition.trim();
  if (text === '') return false;
  const first = text.charCodeAt(0);
  return first >= 48 && first <= 57 ? Number.parseInt(text, 10) !== 0 : true;
}

/**
 * Writes `name` the way Set() does: `GLOBAL(x)` sets a global, `CALLERID(name|num|all)`
 * changes the caller id, other functions go to the host's `writeFunction`, anything else is a
 * channel variable. Leading `_`/`__` (inheritance marks on a real server) are dropped.
 *
 * @example assignVariable(host, 'GLOBAL(COUNT)', '3', warn)
 */
export function assignVariable(
  host: DialplanHost,
  name: string,
  value: string,
  warn: (message: string) => void,
): void {
  const paren = name.indexOf('(');
  if (paren > 0 && name.endsWith(')')) {
    const func = name.slice(0, paren).trim().toUpperCase();
    const args = name.slice(paren + 1, -1).trim();
    if (func === 'GLOBAL') host.setGlobal(args, value);
    else if (func === 'CALLERID') writeCallerId(host, args, value, warn);
    else if (!host.writeFunction?.(name.slice(0, paren).trim(), args, value)) {
      warn(`function ${func}() cannot be written in the simulator; Set(${name}=...) is ignored`);
    }
    return;
  }
  host.setVariable(name.replace(/^_{1,2}/, ''), value);
}

function writeCallerId(
  host: DialplanHost,
  part: string,
  value: string,
  warn: (message: string) => void,
): void {
  switch (part.toLowerCase()) {
    case 'name':
      host.setCallerId({ name: value });
      return;
    case 'num':
    case 'number':
      host.setCallerId({ number: value });
      return;
    case 'all': {
      // "Name" <number>, Name <number> or a bare number.
      const match = /^\s*(?:"([^"]*)"|([^<]*?))\s*<([^>]*)>\s*$/.exec(value);
      host.setCallerId(
        match
          ? { name: match[1] ?? match[2] ?? '', number: match[3] ?? '' }
          : { name: '', number: value.trim() },
      );
      return;
    }
    default:
      warn(`CALLERID(${part}) cannot be written: use CALLERID(name), CALLERID(num) or CALLERID(all)`);
  }
}
