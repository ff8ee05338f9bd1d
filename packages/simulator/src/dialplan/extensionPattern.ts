/**
 * Extension names and patterns as the real server reads them.
 *
 * A name starting with `_` is a pattern: `X` = 0-9, `Z` = 1-9, `N` = 2-9, `[15-7]` = a set with
 * ranges, `.` = one or more of anything, `!` = zero or more of anything, any other character
 * stands for itself; `-` is decoration and ignored everywhere (`555-1234` equals `5551234`).
 *
 * Precedence (what `compareExtensions` sorts by, the order in which a context is searched):
 * 1. exact names before patterns;
 * 2. between two patterns, position by position, the one whose position accepts FEWER characters
 *    is more specific and wins (`_12X` before `_1XX` before `_NXX`); a literal accepts 1, `N` 8,
 *    `Z` 9, `X` 10, a set its size;
 * 3. at equal size, the set holding the lowest character wins (`_[1-3]` before `_[4-6]`);
 * 4. `.` comes after every character set, `!` after `.`, and a pattern that has ended after
 *    both (so `_X!` is tried before `_X`).
 * The first extension in this order that matches the dialled string wins; included contexts are
 * searched only after every extension of the context itself.
 */

type Token =
  | { readonly kind: 'set'; readonly chars: string }
  | { readonly kind: 'oneOrMore' }
  | { readonly kind: 'zeroOrMore' };

interface CompiledPattern {
  readonly tokens: readonly Token[];
  /** Set when the pattern is malformed (an unclosed `[`); a malformed pattern matches nothing. */
  readonly error?: string;
  /** Characters written after a `.` or `!` (they can never be reached). */
  readonly unreachable?: string;
}

const compiled = new Map<string, CompiledPattern>();

const DIGITS = '0123456789';

/** True when `name` is a pattern (starts with `_`). */
export function isPattern(name: string): boolean {
  return name.startsWith('_');
}

function compilePattern(pattern: string): CompiledPattern {
  const cached = compiled.get(pattern);
  if (cached) return cached;
  const tokens: Token[] = [];
  let error: string | undefined;
  let unreachable: string | undefined;
  const body = pattern.slice(1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '-') continue;
    if (c === '.' || c === '!') {
      tokens.push({ kind: c === '.' ? 'oneOrMore' : 'zeroOrMore' });
      const rest = body.slice(i + 1).replaceAll('-', '');
      if (rest) unreachable = rest;
      break;
    }
    const upper = c.toUpperCase();
    if (upper === 'X') tokens.push({ kind: 'set', chars: DIGITS });
    else if (upper === 'Z') tokens.push({ kind: 'set', chars: DIGITS.slice(1) });
    else if (upper === 'N') tokens.push({ kind: 'set', chars: DIGITS.slice(2) });
    else if (c === '[') {
      const end = body.indexOf(']', i + 1);
      if (end < 0) {
        error = `unclosed '[' in pattern '${pattern}': write the set as [1-5] or [139]`;
        break;
      }
      const chars = expandSet(body.slice(i + 1, end));
      i = end;
      // An empty set is ignored, as the real server does.
      if (chars) tokens.push({ kind: 'set', chars });
    } else tokens.push({ kind: 'set', chars: c });
  }
  const result: CompiledPattern = {
    tokens,
    ...(error ? { error } : {}),
    ...(unreachable ? { unreachable } : {}),
  };
  compiled.set(pattern, result);
  return result;
}

/** `1-35` -> `1235` (sorted, no duplicates). A `-` first or last is literal. */
function expandSet(spec: string): string {
  const codes = new Set<number>();
  for (let i = 0; i < spec.length; i++) {
    const from = spec.charCodeAt(i);
    if (i + 2 < spec.length && spec[i + 1] === '-') {
      const to = spec.charCodeAt(i + 2);
      for (let c = from; c <= to; c++) codes.add(c);
      i += 2;
    } else codes.add(from);
  }
  return [...codes]
    .sort((a, b) => a - b)
    .map((c) => String.fromCharCode(c))
    .join('');
}

/**
 * Why a pattern cannot work, or `undefined` when it is fine. Exact names are always fine.
 *
 * @example patternProblem('_[1-5XX') // "unclosed '[' in pattern ..."
 */
export function patternProblem(name: string): string | undefined {
  if (!isPattern(name)) return undefined;
  const { tokens, error } = compilePattern(name);
  if (error) return error;
  if (tokens.length === 0) return `pattern '${name}' has nothing after '_': write e.g. _X. or _NXX`;
  return undefined;
}

/** Characters written after `.` or `!` in a pattern: never reached (the real server ignores them). */
export function unreachablePatternPart(name: string): string | undefined {
  return isPattern(name) ? compilePattern(name).unreachable : undefined;
}

/**
 * Does the extension name or pattern match the dialled string?
 *
 * @example matchExtension('_NXX', '200') // true
 * @example matchExtension('_X.', '5') // false: '.' needs at least one more character
 */
export function matchExtension(name: string, dialled: string): boolean {
  if (!isPattern(name)) return stripDashes(name) === stripDashes(dialled);
  const { tokens, error } = compilePattern(name);
  if (error) return false;
  const data = stripDashes(dialled);
  let i = 0;
  for (const token of tokens) {
    if (token.kind === 'zeroOrMore') return true;
    if (i >= data.length) return false;
    if (token.kind === 'oneOrMore') return true;
    if (!token.chars.includes(data[i]!)) return false;
    i++;
  }
  return i === data.length;
}

function stripDashes(s: string): string {
  return s.includes('-') ? s.replaceAll('-', '') : s;
}

// Rank of one pattern position: smaller sorts first. Sets rank by size then lowest character;
// '.', '!' and the end of the pattern rank after every set, in that order.
const RANK_ONE_OR_MORE = 0x18000;
const RANK_ZERO_OR_MORE = 0x28000;
const RANK_END = 0x30000;
const RANK_BROKEN = 0x40000;

function positionRank(token: Token | undefined): number {
  if (!token) return RANK_END;
  if (token.kind === 'oneOrMore') return RANK_ONE_OR_MORE;
  if (token.kind === 'zeroOrMore') return RANK_ZERO_OR_MORE;
  return token.chars.length * 0x100 + token.chars.charCodeAt(0);
}

/**
 * Orders two extension names for searching (see the module comment for the rule).
 * Negative when `a` is tried first.
 *
 * @example ['_X.', '100', '_1XX'].sort(compareExtensions) // ['100', '_1XX', '_X.']
 */
export function compareExtensions(a: string, b: string): number {
  const aPattern = isPattern(a);
  const bPattern = isPattern(b);
  if (!aPattern || !bPattern) {
    if (aPattern !== bPattern) return aPattern ? 1 : -1;
    return compareCodes(stripDashes(a), stripDashes(b));
  }
  const left = compilePattern(a);
  const right = compilePattern(b);
  for (let i = 0; ; i++) {
    const l = left.error && i >= left.tokens.length ? RANK_BROKEN : positionRank(left.tokens[i]);
    const r = right.error && i >= right.tokens.length ? RANK_BROKEN : positionRank(right.tokens[i]);
    if (l !== r) return l - r;
    const lt = left.tokens[i];
    const rt = right.tokens[i];
    if (lt?.kind === 'set' && rt?.kind === 'set' && lt.chars !== rt.chars)
      return compareSets(lt.chars, rt.chars);
    if (l >= RANK_END) return 0;
  }
}

/** Same size: the set holding the lowest character that the other lacks comes first. */
function compareSets(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (ca === cb) {
      i++;
      j++;
    } else return ca < cb ? -1 : 1;
  }
  return 0;
}

function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
