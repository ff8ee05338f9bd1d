import { evaluateExpression, ExpressionError } from './evaluateExpression.ts';

/**
 * Where substitution reads values from. `variable` gets plain names (`EXTEN`, `FOO`);
 * `func` gets dialplan function calls (`CALLERID(num)` -> name `CALLERID`, args `num`).
 * `undefined` means "not set" and substitutes as the empty string, as on the real server.
 */
export interface VariableScope {
  variable(name: string): string | undefined;
  func(name: string, args: string): string | undefined;
  /** Told about a malformed `$[...]` expression or `${` without `}` (the text still substitutes). */
  warn?(message: string): void;
}

/**
 * Replaces `${NAME}`, `${NAME:offset}`, `${NAME:offset:length}`, `${FUNC(args)}` (also with
 * offset/length) and `$[expression]` in `text`, innermost first, so names and arguments may
 * themselves contain substitutions (`${VAR_${N}}`, `${CALLERID(${WHICH})}`).
 *
 * @example substituteVariables('${EXTEN:1}', scope) // with EXTEN=9100 -> '100'
 */
export function substituteVariables(text: string, scope: VariableScope): string {
  if (!text.includes('$')) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c !== '$' || (next !== '{' && next !== '[')) {
      out += c;
      i++;
      continue;
    }
    const open = next;
    const close = open === '{' ? '}' : ']';
    // Find the matching close, counting nested openings of the same kind.
    let depth = 1;
    let j = i + 2;
    for (; j < text.length; j++) {
      const d = text[j];
      if (d === open) depth++;
      else if (d === close && --depth === 0) break;
    }
    if (j >= text.length) {
      scope.warn?.(`"$${open}" without a closing "${close}" in "${text}": the text is used as written`);
      out += text.slice(i);
      break;
    }
    const inner = substituteVariables(text.slice(i + 2, j), scope);
    out += open === '{' ? readReference(inner, scope) : readExpression(inner, scope);
    i = j + 1;
  }
  return out;
}

function readExpression(expression: string, scope: VariableScope): string {
  try {
    return evaluateExpression(expression);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    scope.warn?.(`cannot evaluate $[${expression}]: ${error.message}; it substitutes as ""`);
    return '';
  }
}

/** `NAME`, `NAME:1:3`, `FUNC(args)`, `FUNC(args):-4`. */
function readReference(reference: string, scope: VariableScope): string {
  // The offset/length colons are the ones outside parentheses.
  let depth = 0;
  let colon = -1;
  for (let k = 0; k < reference.length; k++) {
    const c = reference[k];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ':' && depth === 0) {
      colon = k;
      break;
    }
  }
  const name = colon < 0 ? reference : reference.slice(0, colon);
  const paren = name.indexOf('(');
  const value =
    paren > 0 && name.endsWith(')')
      ? scope.func(name.slice(0, paren).trim(), name.slice(paren + 1, -1))
      : scope.variable(name);
  if (value === undefined) return '';
  if (colon < 0) return value;
  const [offsetText = '', lengthText] = reference.slice(colon + 1).split(':');
  return substring(value, Number.parseInt(offsetText, 10) || 0, lengthText);
}

/**
 * The real server's substring rule: a negative offset counts from the end; a negative length
 * leaves that many characters off the end; no length means "to the end".
 */
function substring(value: string, offset: number, lengthText: string | undefined): string {
  let start = offset < 0 ? Math.max(0, value.length + offset) : Math.min(offset, value.length);
  if (lengthText === undefined || lengthText.trim() === '') return value.slice(start);
  const length = Number.parseInt(lengthText, 10) || 0;
  if (length >= 0) return value.slice(start, start + length);
  const end = value.length + length;
  if (end < start) start = end;
  return value.slice(start, Math.max(start, end));
}
