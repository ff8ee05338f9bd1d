/**
 * The `$[...]` expressions of the dialplan (after variables are substituted), as the real
 * server's expression parser reads them: numbers and strings (double quotes optional),
 * `( )`, unary `-` and `!`, `* / %`, `+ -`, comparisons `= == != < > <= >=` (numeric when both
 * sides are numbers, text otherwise), `&` (and), `|` (or), and `cond ? a :: b`. True is `1`,
 * false is `0`; `0` and the empty string are false. Regular-expression operators (`:` and
 * `=~`) are not simulated and make the expression fail.
 *
 * @example evaluateExpression('${X} + 1'.replace('${X}', '41')) // '42'
 * @example evaluateExpression('"abc" = abc') // '1'
 */
export function evaluateExpression(text: string): string {
  const parser = new ExpressionParser(tokenize(text));
  const value = parser.ternary();
  if (!parser.atEnd()) throw new ExpressionError(`unexpected "${parser.peek()}" in $[${text}]`);
  return value;
}

/** Raised for a malformed expression; the interpreter reports it and substitutes an empty string. */
export class ExpressionError extends Error {
  override name = 'ExpressionError';
}

const OPERATORS = [
  '==',
  '!=',
  '<=',
  '>=',
  '=~',
  '::',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '!',
  '?',
  ':',
  '(',
  ')',
];

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new ExpressionError(`unclosed quote in $[${text}]`);
      // Marked with a leading NUL so a quoted "+" stays a string, not an operator.
      tokens.push(`\0${text.slice(i + 1, end)}`);
      i = end + 1;
    } else {
      const op = OPERATORS.find((o) => text.startsWith(o, i));
      if (op) {
        tokens.push(op);
        i += op.length;
      } else {
        let j = i;
        while (j < text.length && text[j] !== ' ' && text[j] !== '\t' && text[j] !== '"') {
          if (OPERATORS.some((o) => text.startsWith(o, j))) break;
          j++;
        }
        tokens.push(`\0${text.slice(i, j)}`);
        i = j;
      }
    }
  }
  return tokens;
}

function isNumber(s: string): boolean {
  return /^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(s);
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) throw new ExpressionError('division by zero');
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

function truthy(s: string): boolean {
  if (s === '') return false;
  return isNumber(s) ? Number(s) !== 0 : true;
}

class ExpressionParser {
  private index = 0;
  constructor(private readonly tokens: readonly string[]) {}

  atEnd(): boolean {
    return this.index >= this.tokens.length;
  }
  peek(): string {
    return (this.tokens[this.index] ?? '').replace('\0', '');
  }
  private accept(...ops: string[]): string | undefined {
    const t = this.tokens[this.index];
    if (t !== undefined && ops.includes(t)) {
      this.index++;
      return t;
    }
    return undefined;
  }

  ternary(): string {
    const condition = this.or();
    if (!this.accept('?')) return condition;
    const ifTrue = this.or();
    if (!this.accept('::')) throw new ExpressionError("expected '::' in a '? ::' expression");
    const ifFalse = this.or();
    return truthy(condition) ? ifTrue : ifFalse;
  }
  private or(): string {
    let left = this.and();
    while (this.accept('|')) {
      const right = this.and();
      left = truthy(left) ? left : truthy(right) ? right : '0';
    }
    return left;
  }
  private and(): string {
    let left = this.comparison();
    while (this.accept('&')) {
      const right = this.comparison();
      left = truthy(left) && truthy(right) ? left : '0';
    }
    return left;
  }
  private comparison(): string {
    let left = this.additive();
    for (;;) {
      const op = this.accept('=', '==', '!=', '<', '>', '<=', '>=');
      if (!op) return left;
      const right = this.additive();
      const numeric = isNumber(left) && isNumber(right);
      const l: number | string = numeric ? Number(left) : left;
      const r: number | string = numeric ? Number(right) : right;
      const result =
        op === '=' || op === '=='
          ? l === r
          : op === '!='
            ? l !== r
            : op === '<'
              ? l < r
              : op === '>'
                ? l > r
                : op === '<='
                  ? l <= r
                  : l >= r;
      left = result ? '1' : '0';
    }
  }
  private additive(): string {
    let left = this.multiplicative();
    for (;;) {
      const op = this.accept('+', '-');
      if (!op) return left;
      const right = this.multiplicative();
      left = formatNumber(op === '+' ? this.num(left) + this.num(right) : this.num(left) - this.num(right));
    }
  }
  private multiplicative(): string {
    let left = this.unary();
    for (;;) {
      const op = this.accept('*', '/', '%');
      if (!op) return left;
      const right = this.unary();
      const l = this.num(left);
      const r = this.num(right);
      if ((op === '/' || op === '%') && r === 0) throw new ExpressionError('division by zero');
      left = formatNumber(op === '*' ? l * r : op === '/' ? l / r : l % r);
    }
  }
  private unary(): string {
    if (this.accept('-')) return formatNumber(-this.num(this.unary()));
    if (this.accept('!')) return truthy(this.unary()) ? '0' : '1';
    return this.primary();
  }
  private primary(): string {
    if (this.accept('(')) {
      const value = this.ternary();
      if (!this.accept(')')) throw new ExpressionError("expected ')'");
      return value;
    }
    const t = this.tokens[this.index];
    if (t === undefined) throw new ExpressionError('expression ends where a value was expected');
    if (!t.startsWith('\0')) {
      if (t === ':' || t === '=~')
        throw new ExpressionError(`the regular-expression operator '${t}' is not simulated`);
      throw new ExpressionError(`expected a value, found '${t}'`);
    }
    this.index++;
    return t.slice(1);
  }
  private num(s: string): number {
    if (!isNumber(s)) throw new ExpressionError(`"${s}" is not a number`);
    return Number(s);
  }
}
