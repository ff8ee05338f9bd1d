import type { Environment } from '@marcbachmann/cel-js';
import { readName } from '../model/flowName.ts';
import { didYouMean } from '../validate/suggest.ts';
import { baseEnvironment, type CompiledExpression } from './Expression.ts';
import type { TypeShape } from './TypeShape.ts';

/** What is known of the roots where an expression sits; `event` undefined: it cannot be known there. */
export interface ExpressionRoots {
  readonly input: TypeShape;
  readonly vars: TypeShape;
  readonly call: TypeShape;
  readonly event: TypeShape | undefined;
}

/** A type problem, at a character offset of the expression. */
export interface TypeProblem {
  readonly kind: 'unknown-property' | 'unknown-variable' | 'expression-type';
  readonly severity: 'error' | 'warning';
  readonly root?: keyof ExpressionRoots;
  readonly message: string;
  readonly offset: number;
}

/** The CEL types a field of the flow format accepts (from its schema); undefined: anything. */
export type ExpectedTypes = readonly ('string' | 'int' | 'double' | 'bool' | 'list' | 'map')[] | undefined;

type RecordShape = Exclude<TypeShape, string>;

const WORDS = {
  string: 'text',
  int: 'a number',
  double: 'a number',
  bool: 'true or false',
  list: 'a list',
  map: 'a mapping',
} as const;

/** Environments by the shapes they declare: a flow has a handful of distinct contexts. */
const environments = new Map<string, Environment>();

function typeName(path: readonly string[]): string {
  return `ringflow_${path.join('_').replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** Registers the record types of a shape (inner ones first) and returns the CEL type to use. */
function declare(env: Environment, shape: TypeShape, path: readonly string[]): string {
  if (typeof shape === 'string') return shape;
  const fields: Record<string, string> = {};
  for (const [name, field] of Object.entries(shape.fields))
    fields[name] = declare(env, field, [...path, name]);
  const name = typeName(path);
  env.registerType(name, { fields });
  return name;
}

function environmentFor(roots: ExpressionRoots): Environment {
  const key = JSON.stringify(roots);
  let env = environments.get(key);
  if (!env) {
    env = baseEnvironment.clone();
    for (const root of ['input', 'vars', 'call'] as const)
      env.registerVariable(root, declare(env, roots[root], [root]));
    env.registerVariable('event', declare(env, roots.event ?? 'dyn', ['event']));
    env.registerVariable('now', 'google.protobuf.Timestamp');
    if (environments.size > 500) environments.clear();
    environments.set(key, env);
  }
  return env;
}

/** The record a dotted path leads to (`call.caller`), to suggest its fields. */
function recordAt(roots: ExpressionRoots, chain: string): RecordShape | undefined {
  const [root, ...rest] = chain.split('.');
  let shape: TypeShape | undefined = roots[root as keyof ExpressionRoots];
  for (const part of rest) shape = typeof shape === 'object' ? shape.fields[part] : undefined;
  return typeof shape === 'object' ? shape : undefined;
}

function unknownFieldMessage(record: RecordShape, chain: string, field: string): string {
  const fields = Object.keys(record.fields);
  if (chain === 'vars') {
    const suggestion = didYouMean(field, fields);
    return `"${readName('vars', field)}" is never declared or assigned (it would always be missing at run time).${suggestion} ${suggestion ? 'If not, declare' : 'Declare'} it (vars: { ${field}: <initial value> }) or assign it (a set, or as: ${field} on a step).`;
  }
  if (chain === 'input')
    return `"${readName('input', field)}" is not a declared input.${didYouMean(field, fields) || ' Declare it under inputs.'}`;
  const suggestion = didYouMean(field, fields) || ` Its fields: ${fields.join(', ')}.`;
  const server =
    record.unknownField === 'warning'
      ? ' (not in the interface description; a newer server may send it)'
      : '';
  return `"${chain}.${field}": ${record.noun} has no field "${field}"${server}.${suggestion}`;
}

function accepts(expected: ExpectedTypes, type: string): boolean {
  if (expected === undefined || type === 'dyn') return true;
  const family = type.startsWith('list')
    ? 'list'
    : type.startsWith('map') || type.startsWith('ringflow_')
      ? 'map'
      : type;
  if (family === 'int' || family === 'double') return expected.includes('int') || expected.includes('double');
  return expected.includes(family as 'string');
}

/**
 * Type-checks an expression (already parsed by `compileExpression`) against what is known of its
 * roots, with the CEL library's own checker: fields of `call`, `event` and the declared `vars` and
 * `input` with their types, operand types (`vars.tries > 'a'`), and the type the field expects
 * (`media: { expr: "vars.tries + 1" }`). Fields a record does not list are reported with a
 * suggestion; a value whose type cannot be known is `dyn` and passes.
 *
 * @example
 * checkExpressionTypes(compiled, { input: 'map', vars: 'map', call: callShape, event: undefined }, 'value', ['string'])
 * // [{ kind: 'unknown-property', message: '"call.extention": call has no field ... Did you mean "extension"?', ... }]
 */
export function checkExpressionTypes(
  expression: CompiledExpression,
  roots: ExpressionRoots,
  role: 'condition' | 'value',
  expected?: ExpectedTypes,
): TypeProblem[] {
  const problems: TypeProblem[] = [];
  // Unknown fields right under a root are all reported here (the checker stops at the first
  // problem), then read as `dyn` so that the checker goes on to the types.
  const lenient: Record<string, TypeShape> = { ...roots, event: roots.event ?? 'dyn' };
  for (const root of ['input', 'vars', 'call', 'event'] as const) {
    const shape = lenient[root];
    if (typeof shape !== 'object') continue;
    const added: Record<string, TypeShape> = {};
    for (const ref of expression.references.get(root) ?? []) {
      if (Object.hasOwn(shape.fields, ref.name) || Object.hasOwn(added, ref.name)) continue;
      added[ref.name] = 'dyn';
      problems.push({
        kind: root === 'vars' || root === 'input' ? 'unknown-variable' : 'unknown-property',
        severity: shape.unknownField,
        root,
        message: unknownFieldMessage(shape, root, ref.name),
        offset: ref.offset,
      });
    }
    if (Object.keys(added).length > 0) lenient[root] = { ...shape, fields: { ...shape.fields, ...added } };
  }
  // `lenient` is built field by field as a mutable copy of the roots' shapes: the same structure.
  const env = environmentFor(lenient as unknown as ExpressionRoots);
  const checked = env.check(expression.source);
  if (!checked.valid) {
    const error = checked.error as Error & { range?: { start: number } };
    const offset = error.range?.start ?? 0;
    const message = error.message.split('\n')[0]!.trim();
    const missing = /^No such key: (\S+)/.exec(message);
    const chain = /([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\.\s*$/.exec(expression.source.slice(0, offset));
    const record =
      missing && chain
        ? recordAt(lenient as unknown as ExpressionRoots, chain[1]!.replace(/\s/g, ''))
        : undefined;
    if (missing && chain && record)
      problems.push({
        kind: 'unknown-property',
        severity: record.unknownField,
        message: unknownFieldMessage(record, chain[1]!.replace(/\s/g, ''), missing[1]!),
        offset,
      });
    else
      problems.push({
        kind: 'expression-type',
        severity: 'error',
        message: /^no such overload/i.test(message) ? `the types do not fit (${message})` : message,
        offset,
      });
    return problems;
  }
  const type = String(checked.type);
  if (role === 'condition' && type !== 'bool' && type !== 'dyn')
    problems.push({
      kind: 'expression-type',
      severity: 'error',
      message: `a condition must be true or false, but this expression gives ${type}`,
      offset: 0,
    });
  else if (role === 'value' && !accepts(expected, type))
    problems.push({
      kind: 'expression-type',
      severity: 'error',
      message: `this field takes ${[...new Set(expected!.map((t) => WORDS[t]))].join(' or ')}, but this expression gives ${type.startsWith('ringflow_') ? 'a record' : type}`,
      offset: 0,
    });
  return problems;
}
