import { Environment, ParseError } from '@marcbachmann/cel-js';
import { fromCel, toCel } from './celValues.ts';
import { isKnownTimeZone, isOpenAt, parseOpeningHours } from './openingHours.ts';

/** The roots an expression can read. `now` is milliseconds since the epoch from the runtime Clock. */
export interface ExpressionScope {
  readonly input: Readonly<Record<string, unknown>>;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly call: Readonly<Record<string, unknown>>;
  readonly event: unknown;
  readonly now: number;
}

export const EXPRESSION_ROOTS = ['input', 'vars', 'call', 'event', 'now'] as const;

/** Structural limits, checked when the flow is loaded. */
export const EXPRESSION_LIMITS = {
  maxLength: 1000,
  maxAstNodes: 200,
  maxDepth: 24,
  maxListElements: 50,
  maxMapEntries: 50,
  maxCallArguments: 8,
  /** Comprehension macros (map, filter, exists...) inside another one's body. */
  maxNestedComprehensions: 1,
} as const;

const COMPREHENSIONS = new Set([
  'all',
  'exists',
  'exists_one',
  'map',
  'filter',
  'transformList',
  'transformMap',
  'sortBy',
]);

/** A problem with an expression, with the character offset where it starts. */
export interface ExpressionProblem {
  readonly kind:
    | 'expression-syntax'
    | 'expression-type'
    | 'expression-too-complex'
    | 'unknown-variable'
    | 'invalid-hours';
  readonly message: string;
  readonly offset: number;
}

function openingHoursOrThrow(spec: string) {
  const parsed = parseOpeningHours(spec);
  if (!parsed.ok) throw new Error(`isOpen: ${parsed.problem}`);
  return parsed.hours;
}

function zoneOrThrow(zone: string): string {
  if (!isKnownTimeZone(zone))
    throw new Error(`isOpen: unknown time zone "${zone}"; use an IANA name such as "Europe/Paris"`);
  return zone;
}

const TS = 'google.protobuf.Timestamp';

/**
 * The language without its roots: limits and functions. The runtime adds the roots untyped
 * (below); the validator adds them with the types it knows (`checkExpressionTypes`).
 */
export const baseEnvironment = new Environment({
  unlistedVariablesAreDyn: false,
  homogeneousAggregateLiterals: false,
  limits: {
    maxAstNodes: EXPRESSION_LIMITS.maxAstNodes,
    maxDepth: EXPRESSION_LIMITS.maxDepth,
    maxListElements: EXPRESSION_LIMITS.maxListElements,
    maxMapEntries: EXPRESSION_LIMITS.maxMapEntries,
    maxCallArguments: EXPRESSION_LIMITS.maxCallArguments,
  },
})
  .registerFunction(`isOpen(${TS}, string, string): bool`, (t: Date, spec: string, zone: string) =>
    isOpenAt(t.getTime(), openingHoursOrThrow(spec), zoneOrThrow(zone)),
  )
  .registerFunction(`isOpen(${TS}, string): bool`, (t: Date, spec: string) =>
    isOpenAt(t.getTime(), openingHoursOrThrow(spec), 'UTC'),
  );

/** One shared environment: building one is costly, and it holds no per-call state. */
const environment = baseEnvironment
  .clone()
  .registerVariable('input', 'map', { description: 'The flow inputs, with defaults applied.' })
  .registerVariable('vars', 'map', { description: 'The flow variables.' })
  .registerVariable('call', 'map', {
    description: 'The call: channelId, caller, extension, language, variables.',
  })
  .registerVariable('event', 'dyn', { description: 'The event or step result being handled.' })
  .registerVariable('now', TS, { description: 'The current time, from the runtime clock.' });

type CelNode = { op: string; args: unknown; start?: number; pos?: number };

function isNode(value: unknown): value is CelNode {
  return typeof value === 'object' && value !== null && 'op' in value;
}

/** Visits every node with the number of comprehension bodies around it. */
function visit(node: unknown, depth: number, fn: (n: CelNode, depth: number) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) visit(child, depth, fn);
    return;
  }
  if (!isNode(node)) return;
  fn(node, depth);
  const args = node.args;
  if (
    node.op === 'rcall' &&
    Array.isArray(args) &&
    typeof args[0] === 'string' &&
    COMPREHENSIONS.has(args[0])
  ) {
    visit(args[1], depth, fn); // the list being iterated is outside the body
    visit(args.slice(2), depth + 1, fn);
    return;
  }
  visit(args, depth, fn);
}

/** A parsed expression, ready to evaluate many times. */
export interface CompiledExpression {
  readonly source: string;
  /** Evaluates in a fresh copy of the scope; throws ExpressionError on a runtime failure. */
  evaluate(scope: ExpressionScope): unknown;
  /** Member names read under each root: `vars.tries`, `vars['ask-zip']` -> { vars: ['tries', 'ask-zip'] }. */
  readonly references: ReadonlyMap<string, readonly { name: string; offset: number }[]>;
  /** String literals passed to functions, by function name (for checking isOpen's hours). */
  readonly literalCalls: readonly { fn: string; args: readonly (string | undefined)[]; offset: number }[];
}

/** An expression failed while running (a missing key, a type mismatch at run time). */
export class ExpressionError extends Error {
  override name = 'ExpressionError';
  constructor(
    message: string,
    readonly source: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

/**
 * Parses and checks an expression. Returns the problems instead of throwing, so a validator can
 * report them all with positions.
 *
 * @example
 * const r = compileExpression('vars.tries > 2');
 * if (r.ok) r.expression.evaluate(scope);
 */
export function compileExpression(
  source: string,
  role: 'condition' | 'value' = 'value',
): { ok: true; expression: CompiledExpression } | { ok: false; problem: ExpressionProblem } {
  if (source.length > EXPRESSION_LIMITS.maxLength)
    return {
      ok: false,
      problem: {
        kind: 'expression-too-complex',
        offset: 0,
        message: `expression is longer than ${EXPRESSION_LIMITS.maxLength} characters; split the logic into steps`,
      },
    };
  let parsed: ReturnType<typeof environment.parse>;
  try {
    parsed = environment.parse(source);
  } catch (e) {
    const err = e as ParseError & { range?: { start: number }; code?: string };
    const kind = err.code === 'limit_exceeded' ? 'expression-too-complex' : 'expression-syntax';
    return {
      ok: false,
      problem: {
        kind,
        offset: err.range?.start ?? 0,
        message:
          e instanceof ParseError || err.summary
            ? (err.summary ?? firstLine(err.message))
            : firstLine(String(e)),
      },
    };
  }
  let problem: ExpressionProblem | undefined;
  const references = new Map<string, { name: string; offset: number }[]>();
  const literalCalls: { fn: string; args: (string | undefined)[]; offset: number }[] = [];
  visit(parsed.ast, 0, (node, depth) => {
    if (depth > EXPRESSION_LIMITS.maxNestedComprehensions && !problem)
      problem = {
        kind: 'expression-too-complex',
        offset: node.start ?? 0,
        message:
          'comprehensions (map, filter, exists, all) may not be nested; compute the inner part in a separate step',
      };
    if (node.op === '.' && Array.isArray(node.args) && isNode(node.args[0]) && node.args[0].op === 'id') {
      const root = node.args[0].args as string;
      const list = references.get(root) ?? [];
      list.push({ name: String(node.args[1]), offset: node.args[0].start ?? 0 });
      references.set(root, list);
    }
    // `vars['ask-zip']`: how a name with a "-" is read.
    if (
      node.op === '[]' &&
      Array.isArray(node.args) &&
      isNode(node.args[0]) &&
      node.args[0].op === 'id' &&
      isNode(node.args[1]) &&
      node.args[1].op === 'value' &&
      typeof node.args[1].args === 'string'
    ) {
      const root = node.args[0].args as string;
      const list = references.get(root) ?? [];
      list.push({ name: node.args[1].args, offset: node.args[0].start ?? 0 });
      references.set(root, list);
    }
    if (
      node.op === 'call' &&
      Array.isArray(node.args) &&
      typeof node.args[0] === 'string' &&
      Array.isArray(node.args[1])
    ) {
      const args = (node.args[1] as unknown[]).map((a) =>
        isNode(a) && a.op === 'value' && typeof a.args === 'string' ? a.args : undefined,
      );
      literalCalls.push({ fn: node.args[0], args, offset: node.start ?? 0 });
    }
  });
  if (problem) return { ok: false, problem };
  const checked = parsed.check();
  if (!checked.valid) {
    const err = checked.error as Error & { range?: { start: number }; summary?: string };
    const message = err.summary ?? firstLine(err.message);
    const kind = /^Unknown variable/i.test(message) ? 'unknown-variable' : 'expression-type';
    const hint = kind === 'unknown-variable' ? `; expressions can read ${EXPRESSION_ROOTS.join(', ')}` : '';
    return { ok: false, problem: { kind, offset: err.range?.start ?? 0, message: message + hint } };
  }
  if (role === 'condition' && checked.type !== 'bool' && checked.type !== 'dyn')
    return {
      ok: false,
      problem: {
        kind: 'expression-type',
        offset: 0,
        message: `a condition must be true or false, but this expression gives ${checked.type}`,
      },
    };
  const evaluate = (scope: ExpressionScope): unknown => {
    try {
      const activation = {
        input: toCel(scope.input),
        vars: toCel(scope.vars),
        call: toCel(scope.call),
        event: toCel(scope.event),
        now: new Date(scope.now),
      };
      return fromCel(parsed(activation));
    } catch (e) {
      throw new ExpressionError(
        `expression "${source}" failed: ${firstLine(e instanceof Error ? e.message : String(e))}`,
        source,
        { cause: e },
      );
    }
  };
  return { ok: true, expression: { source, evaluate, references, literalCalls } };
}

/** Cache of compiled expressions by source: flows reuse the same texts for every call. */
const cache = new Map<string, CompiledExpression>();

/**
 * Compiles (once) and evaluates an expression; throws ExpressionError on any failure.
 * @example evaluateExpression('vars.tries + 1', scope) // 3
 */
export function evaluateExpression(source: string, scope: ExpressionScope): unknown {
  let compiled = cache.get(source);
  if (!compiled) {
    const result = compileExpression(source);
    if (!result.ok)
      throw new ExpressionError(`expression "${source}" is invalid: ${result.problem.message}`, source);
    compiled = result.expression;
    if (cache.size > 10_000) cache.clear();
    cache.set(source, compiled);
  }
  return compiled.evaluate(scope);
}

/** Evaluates a condition: `true`/`false` literals as is, a text as an expression that must give a boolean. */
export function evaluateCondition(condition: string | boolean, scope: ExpressionScope): boolean {
  if (typeof condition === 'boolean') return condition;
  const value = evaluateExpression(condition, scope);
  if (typeof value !== 'boolean')
    throw new ExpressionError(
      `condition "${condition}" gave ${JSON.stringify(value)} instead of true or false`,
      condition,
    );
  return value;
}
