import { type Diagnostic, diagnostic, type Path } from '../validate/Diagnostic.ts';
import { didYouMean, suggest } from '../validate/suggest.ts';
import { resolveNode, type SchemaNode } from './s.ts';

/** An expression found while checking, handed to the expression checker with its place. */
export interface FoundExpression {
  readonly path: Path;
  readonly source: string;
  /** `condition` must yield a boolean; `value` any value of the field. */
  readonly role: 'condition' | 'value';
  /** For a value: what the field takes when written literally. */
  readonly expected?: SchemaNode;
}

export interface CheckResult {
  readonly diagnostics: Diagnostic[];
  readonly expressions: FoundExpression[];
}

/** Words for the JSON type of a value, as a user would say it. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string')
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  return `${typeof value} ${String(value)}`;
}

/** Words for what a schema node accepts. */
export function describeNode(input: SchemaNode): string {
  const node = resolveNode(input);
  switch (node.kind) {
    case 'string':
      return node.enum ? `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}` : 'a text';
    case 'number':
      return node.integer ? 'a whole number' : 'a number';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'nothing';
    case 'any':
      return 'any value';
    case 'array':
      return `a list of ${describeNode(node.items)}`;
    case 'object':
      return 'a mapping';
    case 'record':
      return 'a mapping';
    case 'union':
      return [...new Set(node.options.map(describeNode))].join(' or ');
    case 'expr':
      return `${describeNode(node.inner)} or { expr: "<expression>" }`;
    case 'condition':
      return 'a condition (an expression text, or true/false)';
    case 'keyed':
      return `a ${node.noun}`;
  }
}

/** A value as written in a one-line flow mapping (`zip`, `"vars.n > 1"`), or `...` when long or nested. */
function shortValue(value: unknown): string {
  if (typeof value === 'string') return /^[A-Za-z_][\w-]*$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '...';
}

/** Whether every branch that has fields takes this one (`if`, `as`, `on`: options of any step). */
function isOptionOfEvery(branches: Readonly<Record<string, SchemaNode>>, key: string): boolean {
  const objects = Object.values(branches)
    .map(resolveNode)
    .filter((b) => b.kind === 'object');
  return objects.length > 0 && objects.every((b) => b.kind === 'object' && Object.hasOwn(b.props, key));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type family of a value, for choosing union branches. */
function family(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

function familiesOf(input: SchemaNode): string[] {
  const node = resolveNode(input);
  switch (node.kind) {
    case 'string':
      return ['string'];
    case 'number':
      return ['number'];
    case 'boolean':
      return ['boolean'];
    case 'null':
      return ['null'];
    case 'any':
      return ['string', 'number', 'boolean', 'object', 'array', 'null'];
    case 'array':
      return ['array'];
    case 'object':
    case 'record':
      return ['object'];
    case 'union':
      return node.options.flatMap(familiesOf);
    case 'expr':
      return [...familiesOf(node.inner), 'object'];
    case 'condition':
      return ['string', 'boolean'];
    case 'keyed':
      return node.bare.length > 0 ? ['object', 'string'] : ['object'];
  }
}

/**
 * Checks a plain value against a schema and reports every problem found (it never stops at the
 * first), with the path of each. Expressions are collected for a later, context-aware check.
 */
export function checkValue(schema: SchemaNode, value: unknown, path: Path = []): CheckResult {
  const result: CheckResult = { diagnostics: [], expressions: [] };
  walk(schema, value, path, result);
  return result;
}

function walk(input: SchemaNode, value: unknown, path: Path, out: CheckResult): void {
  const node = resolveNode(input);
  const report = (d: Diagnostic) => out.diagnostics.push(d);
  const wrongType = () =>
    report(diagnostic('wrong-type', path, `Expected ${describeNode(node)}, found ${describeValue(value)}.`));

  switch (node.kind) {
    case 'any':
      if (node.expressions) findTemplateExpressions(value, path, out);
      return;
    case 'string': {
      if (typeof value !== 'string') {
        // Numbers where text is expected are a common YAML slip (`choice: 1`); say how to quote.
        if (typeof value === 'number' || typeof value === 'boolean')
          report(
            diagnostic(
              'wrong-type',
              path,
              `Expected ${describeNode(node)}, found ${describeValue(value)}. Quote it to make it text: "${String(value)}".`,
            ),
          );
        else wrongType();
        return;
      }
      if (node.enum && !node.enum.includes(value)) {
        report(
          diagnostic(
            'invalid-value',
            path,
            `"${value}" is not allowed here; expected ${describeNode(node)}.${didYouMean(value, node.enum)}`,
          ),
        );
        return;
      }
      if (node.pattern !== undefined && !new RegExp(node.pattern).test(value)) {
        const name = node.patternHint?.includes('unit') ? 'invalid-duration' : 'invalid-value';
        report(
          diagnostic(
            name,
            path,
            `"${value}" is not valid: expected ${node.patternHint ?? `text matching /${node.pattern}/`}.`,
          ),
        );
        return;
      }
      const problem = node.refine?.test(value);
      if (problem) report(diagnostic(node.refine!.code, path, problem));
      return;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
          report(
            diagnostic(
              'wrong-type',
              path,
              `Expected ${describeNode(node)}, found text "${value}". Remove the quotes.`,
            ),
          );
        else wrongType();
        return;
      }
      if (node.integer && !Number.isInteger(value))
        report(diagnostic('invalid-value', path, `Expected a whole number, found ${value}.`));
      else if (node.min !== undefined && value < node.min)
        report(diagnostic('invalid-value', path, `${value} is too small: the minimum is ${node.min}.`));
      else if (node.max !== undefined && value > node.max)
        report(diagnostic('invalid-value', path, `${value} is too large: the maximum is ${node.max}.`));
      return;
    }
    case 'null':
      if (value !== null) wrongType();
      return;
    case 'boolean':
      if (typeof value !== 'boolean') {
        if (value === 'true' || value === 'false' || value === 'yes' || value === 'no')
          report(
            diagnostic(
              'wrong-type',
              path,
              `Expected true or false, found text "${value}". Write true or false without quotes.`,
            ),
          );
        else wrongType();
      }
      return;
    case 'array': {
      if (!Array.isArray(value)) {
        wrongType();
        return;
      }
      if (node.minItems !== undefined && value.length < node.minItems)
        report(
          diagnostic(
            'invalid-value',
            path,
            `Expected at least ${node.minItems} item${node.minItems === 1 ? '' : 's'}, found ${value.length}.`,
          ),
        );
      value.forEach((item, i) => {
        walk(node.items, item, [...path, i], out);
      });
      return;
    }
    case 'object': {
      if (!isPlainObject(value)) {
        wrongType();
        return;
      }
      const known = Object.keys(node.props);
      for (const [key, item] of Object.entries(value)) {
        const prop = node.props[key];
        if (!prop) {
          report(
            diagnostic(
              'unknown-field',
              [...path, key],
              `Unknown field "${key}".${didYouMean(key, known) || ` Allowed fields: ${known.join(', ')}.`}`,
              { target: 'key' },
            ),
          );
          continue;
        }
        if (item === undefined) continue;
        walk(prop, item, [...path, key], out);
      }
      for (const key of node.required)
        if (value[key] === undefined || value[key] === null)
          report(
            diagnostic(
              'missing-field',
              path,
              `Missing required field "${key}" (${describeNode(node.props[key]!)}).`,
              { target: 'key' },
            ),
          );
      return;
    }
    case 'record': {
      if (!isPlainObject(value)) {
        wrongType();
        return;
      }
      for (const [key, item] of Object.entries(value)) {
        if (node.keyPattern !== undefined && !new RegExp(node.keyPattern).test(key))
          report(
            diagnostic(
              'invalid-value',
              [...path, key],
              `"${key}" is not a valid name here: expected ${node.keyHint ?? `/${node.keyPattern}/`}.`,
              {
                target: 'key',
              },
            ),
          );
        walk(node.values, item, [...path, key], out);
      }
      return;
    }
    case 'union': {
      const fam = family(value);
      const candidates = node.options.filter((o) => familiesOf(o).includes(fam));
      if (candidates.length === 0) {
        wrongType();
        return;
      }
      // Keep the candidate that fits best: fewest problems, so messages speak about the intended shape.
      let best: CheckResult | undefined;
      for (const candidate of candidates) {
        const attempt: CheckResult = { diagnostics: [], expressions: [] };
        walk(candidate, value, path, attempt);
        if (!best || attempt.diagnostics.length < best.diagnostics.length) best = attempt;
        if (attempt.diagnostics.length === 0) break;
      }
      out.diagnostics.push(...best!.diagnostics);
      out.expressions.push(...best!.expressions);
      return;
    }
    case 'expr': {
      if (isPlainObject(value) && 'expr' in value) {
        const extra = Object.keys(value).filter((k) => k !== 'expr');
        for (const key of extra)
          report(
            diagnostic(
              'unknown-field',
              [...path, key],
              `An expression value has only the field "expr"; remove "${key}".`,
              {
                target: 'key',
              },
            ),
          );
        if (typeof value.expr !== 'string')
          report(
            diagnostic(
              'wrong-type',
              [...path, 'expr'],
              `Expected the expression as text, found ${describeValue(value.expr)}.`,
            ),
          );
        else
          out.expressions.push({
            path: [...path, 'expr'],
            source: value.expr,
            role: 'value',
            expected: node.inner,
          });
        return;
      }
      walk(node.inner, value, path, out);
      return;
    }
    case 'condition':
      if (typeof value === 'boolean') return;
      if (typeof value !== 'string') {
        wrongType();
        return;
      }
      out.expressions.push({ path, source: value, role: 'condition' });
      return;
    case 'keyed': {
      const names = Object.keys(node.branches);
      if (typeof value === 'string') {
        if (node.bare.includes(value)) return;
        if (node.branches[value])
          report(
            diagnostic(
              'missing-field',
              path,
              `The ${node.noun} "${value}" needs parameters: write it as "${value}: { ... }".`,
            ),
          );
        else
          report(
            diagnostic(
              'unknown-step',
              path,
              `Unknown ${node.noun} "${value}".${didYouMean(value, names) || ` Known ${node.noun}s: ${names.join(', ')}.`}`,
            ),
          );
        return;
      }
      if (!isPlainObject(value)) {
        wrongType();
        return;
      }
      const keys = Object.keys(value);
      if (keys.length === 0) {
        report(
          diagnostic(
            'missing-field',
            path,
            `Empty ${node.noun}: write one ${node.noun} name as the key, e.g. "play: { prompt: welcome }".`,
          ),
        );
        return;
      }
      const known = keys.filter((k) => node.branches[k] !== undefined);
      if (known.length === 1 && keys.length > 1) {
        // One step with options written beside it (`- gather: {...}` then `as: pin` one level up):
        // one error per option that names the fix, and the step itself checked as usual.
        const name = known[0]!;
        const branch = resolveNode(node.branches[name]!);
        const fields = branch.kind === 'object' ? branch.props : {};
        for (const key of keys) {
          if (key === name) continue;
          const field = Object.hasOwn(fields, key) ? key : undefined;
          const meant = field ?? suggest(key, Object.keys(fields));
          report(
            diagnostic(
              'unknown-field',
              [...path, key],
              meant !== undefined
                ? `"${key}" belongs inside the ${name} ${node.noun}${field ? '' : ` (did you mean "${meant}"?)`}: ${name}: { ..., ${meant}: ${shortValue(value[key])} }.`
                : Object.keys(fields).length === 0
                  ? `"${key}" cannot go beside the ${name} ${node.noun}: a ${node.noun} item has only its name as key, and the ${name} ${node.noun} takes no options${name === 'set' ? ' (each entry assigns a variable; to assign only when a condition holds, use set on a transition with if)' : ''}.`
                  : `Unknown field "${key}" beside the ${name} ${node.noun}: a ${node.noun} item has only its name as key, its options go inside it (${name}: { ... }). The ${name} ${node.noun} takes: ${Object.keys(fields).join(', ')}.`,
              { target: 'key' },
            ),
          );
          // What the option holds is still checked where it is written (a condition, a name).
          if (field !== undefined) walk(fields[field]!, value[key], [...path, key], out);
        }
        const body = value[name];
        walk(node.branches[name]!, body === null || body === undefined ? {} : body, [...path, name], out);
        return;
      }
      // A misspelt step with its options beside it (`- plya: {...}` then `as: x`): the options
      // are told as such, the name as an unknown step, and nothing more.
      const options = keys.filter((k) => !node.branches[k] && isOptionOfEvery(node.branches, k));
      const named = keys.filter((k) => !options.includes(k));
      if (named.length > 1)
        report(
          diagnostic(
            'invalid-value',
            path,
            `A ${node.noun} has exactly one name as its key, found ${keys.length} (${keys.join(', ')}). Put each ${node.noun} in its own list item, and its options under its name.`,
          ),
        );
      for (const key of named.length === 1 ? options : [])
        report(
          diagnostic(
            'unknown-field',
            [...path, key],
            `"${key}" belongs inside the ${node.noun}: ${named[0]}: { ..., ${key}: ${shortValue(value[key])} }.`,
            { target: 'key' },
          ),
        );
      // Still check keys that are known names, so every problem shows up at once.
      for (const key of named.length === 1 ? named : keys) {
        const branch = node.branches[key];
        if (!branch) {
          report(
            diagnostic(
              'unknown-step',
              [...path, key],
              `Unknown ${node.noun} "${key}".${didYouMean(key, names) || ` Known ${node.noun}s: ${names.join(', ')}.`}`,
              { target: 'key' },
            ),
          );
          continue;
        }
        const body = value[key];
        walk(branch, body === null || body === undefined ? {} : body, [...path, key], out);
      }
      return;
    }
  }
}

/** The expressions of a template value (see `s.template`): each `{ expr }` object at any depth. */
function findTemplateExpressions(value: unknown, path: Path, out: CheckResult): void {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) findTemplateExpressions(item, [...path, i], out);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'expr' && typeof (value as { expr: unknown }).expr === 'string') {
    out.expressions.push({
      path: [...path, 'expr'],
      source: (value as { expr: string }).expr,
      role: 'value',
    });
    return;
  }
  for (const [key, item] of Object.entries(value)) findTemplateExpressions(item, [...path, key], out);
}
