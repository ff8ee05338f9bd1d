import { eventTypeNames } from '@ringflow/client/interface';
import {
  checkExpressionTypes,
  type ExpectedTypes,
  type ExpressionRoots,
} from '../expr/checkExpressionTypes.ts';
import { compileExpression } from '../expr/Expression.ts';
import { isKnownTimeZone, parseOpeningHours } from '../expr/openingHours.ts';
import {
  callShape,
  modelShape,
  recordShape,
  shapeOfValue,
  type TypeShape,
  unionShape,
} from '../expr/TypeShape.ts';
import { convertInputValue, type InputDeclaration } from '../inputs/convertFlowInputs.ts';
import { flowEvents, USER_EVENT_PREFIX } from '../model/flowEvents.ts';
import { readName } from '../model/flowName.ts';
import type { FlowDocument, SubflowDocument } from '../model/flowSchema.ts';
import type { FoundExpression } from '../schema/checkValue.ts';
import { resolveNode, type SchemaNode } from '../schema/s.ts';
import { stepDefinition } from '../steps/index.ts';
import type { StepDefinition } from '../steps/StepDefinition.ts';
import { type Diagnostic, diagnostic, type Path } from './Diagnostic.ts';
import { stepEntries } from './stepEntries.ts';

type FlowBody = SubflowDocument;

/** The CEL type of an input as expressions read it (numbers and durations: int unless the default has a fraction). */
function inputShape(input: InputDeclaration): TypeShape {
  switch (input.type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'list':
      return 'list';
    case 'map':
      return 'map';
    case 'number':
    case 'duration': {
      const value = input.default === undefined ? undefined : convertInputValue(input.type, input.default);
      return typeof value === 'number' && !Number.isInteger(value) ? 'double' : 'int';
    }
  }
}

/** What `as` stores: the step's result, whichever outcome it had. */
function storedResultShape(step: string): TypeShape {
  const definition = stepDefinition(step);
  if (!definition) return 'dyn';
  const shapes = definition.outcomes
    .map((o) => resultShape(step, definition, o.name))
    .filter((s): s is TypeShape => s !== undefined);
  return unionShape(`the ${step} step's result`, shapes);
}

/**
 * Variables a flow body declares (typed by their initial value), assigns or stores results in
 * (`as`: the step's result). A variable given values of different types is `dyn`.
 */
function variableShapes(body: FlowBody): Record<string, TypeShape> {
  const shapes: Record<string, TypeShape> = {};
  for (const [name, value] of Object.entries(body.vars ?? {})) shapes[name] = shapeOfValue(value);
  const assign = (name: string, shape: TypeShape) => {
    const known = shapes[name];
    shapes[name] = known === undefined || JSON.stringify(known) === JSON.stringify(shape) ? shape : 'dyn';
  };
  const visit = (value: unknown, parentKey?: string): void => {
    if (Array.isArray(value)) {
      for (const v of value) visit(v);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === 'as' && typeof v === 'string') assign(v, parentKey ? storedResultShape(parentKey) : 'dyn');
        // A `set` step names variables by its keys; an empty or malformed one (`- set:`) names none
        // and is reported by the schema check, so it must not stop this pass.
        if (k === 'set' && v && typeof v === 'object' && !Array.isArray(v)) {
          for (const [name, assigned] of Object.entries(v)) {
            const computed = assigned !== null && typeof assigned === 'object' && 'expr' in assigned;
            // A computed value keeps the declared type (the checker checks the expression itself).
            assign(name, computed ? (shapes[name] ?? 'dyn') : shapeOfValue(assigned));
          }
        }
        visit(v, k);
      }
    }
  };
  // Transitions assign too: in states (steps' on, menu choices, next, choose, on, after) and in
  // the flow's own on handlers.
  visit(body.states);
  visit(body.on);
  return shapes;
}

/** A step's result for one outcome: `{ outcome, step, state, ...data }`. */
function resultShape(
  step: string,
  definition: StepDefinition<unknown>,
  outcome: string,
): TypeShape | undefined {
  const spec = definition.outcomes.find((o) => o.name === outcome);
  if (!spec) return undefined;
  const fields: Record<string, TypeShape> = { outcome: 'string', step: 'string', state: 'string' };
  for (const [name, [type]] of Object.entries(spec.data ?? {})) fields[name] = type;
  return recordShape(`the ${step} step's "${outcome}" result`, fields);
}

/** What `event` is in an `on` handler of a state or of the flow. */
function handlerEventShape(event: string): TypeShape | undefined {
  if (event === 'error')
    return recordShape(
      'a step failure',
      { outcome: 'string', step: 'string', state: 'string', message: 'string', status: 'int' },
      'warning',
    );
  if (event.startsWith(USER_EVENT_PREFIX)) return modelShape('ChannelUserevent');
  if (Object.hasOwn(flowEvents, event)) {
    const types = flowEvents[event as keyof typeof flowEvents].ari;
    const shapes = types.map((t) => modelShape(t)).filter((s): s is TypeShape => s !== undefined);
    return unionShape(`the ${event} event`, shapes);
  }
  return eventTypeNames.includes(event) ? modelShape(event) : undefined;
}

function stepAt(body: FlowBody, state: string, index: number): [string, Record<string, unknown>] | undefined {
  return stepEntries(body.states?.[state]?.steps?.[index]);
}

function startsWith(path: Path, prefix: Path): boolean {
  return prefix.every((part, i) => path[i] === part);
}

/**
 * What `event` is where an expression sits (`rest` is its path inside the flow body): the step's
 * result in a step's `on` (and a menu's choices), the handled event in `on` handlers; undefined
 * elsewhere, where it is whatever the flow last handled.
 */
function eventAt(body: FlowBody, base: Path, rest: Path): TypeShape | undefined {
  if (rest[0] === 'on' && typeof rest[1] === 'string') return handlerEventShape(rest[1]);
  if (rest[0] !== 'states' || typeof rest[1] !== 'string') return undefined;
  if (rest[2] === 'on' && typeof rest[3] === 'string') return handlerEventShape(rest[3]);
  if (rest[2] !== 'steps' || typeof rest[3] !== 'number') return undefined;
  const entry = stepAt(body, rest[1], rest[3]);
  const definition = entry && stepDefinition(entry[0]);
  if (!entry || !definition) return undefined;
  const [name, params] = entry;
  if (rest[4] === name && rest[5] === 'on' && typeof rest[6] === 'string')
    return resultShape(name, definition, rest[6]);
  const full = [...base, ...rest];
  const stepPath = [...base, ...rest.slice(0, 5)];
  for (const { path, shape } of definition.eventShapes?.(params, stepPath) ?? [])
    if (startsWith(full, path)) return shape;
  for (const route of definition.routes?.(params, stepPath) ?? [])
    if (startsWith(full, route.path)) return resultShape(name, definition, route.outcome);
  return undefined;
}

/**
 * `vars.ask-zip` where `ask-zip` is declared: CEL reads `vars.ask - zip`. The name meant, as
 * written, and where it starts.
 */
function dashedRead(
  source: string,
  roots: { readonly input: TypeShape; readonly vars: TypeShape },
): { root: 'vars' | 'input'; name: string; written: string; offset: number } | undefined {
  for (const m of source.matchAll(/\b(vars|input)\s*\.\s*([A-Za-z_]\w*(?:\s*-\s*[A-Za-z_]\w*)+)/g)) {
    const root = m[1] as 'vars' | 'input';
    const shape = roots[root];
    if (typeof shape !== 'object') continue;
    const parts = m[2]!.replace(/\s/g, '').split('-');
    for (let k = parts.length; k >= 2; k--) {
      const name = parts.slice(0, k).join('-');
      if (Object.hasOwn(shape.fields, name))
        return { root, name, written: `${root}.${name}`, offset: m.index };
    }
  }
  return undefined;
}

/** The CEL types a field takes when written literally (its schema). */
function expectedTypes(node: SchemaNode | undefined): ExpectedTypes {
  if (node === undefined) return undefined;
  const resolved = resolveNode(node);
  switch (resolved.kind) {
    case 'string':
      return ['string'];
    case 'number':
      return resolved.integer ? ['int'] : ['int', 'double'];
    case 'boolean':
      return ['bool'];
    case 'array':
      return ['list'];
    case 'object':
    case 'record':
      return ['map'];
    case 'union': {
      const all = resolved.options.map(expectedTypes);
      return all.some((t) => t === undefined) ? undefined : [...new Set(all.flatMap((t) => t!))];
    }
    default:
      return undefined;
  }
}

/**
 * Checks every expression of a flow: syntax and limits, then types against what is known where it
 * sits (declared inputs and variables with their types, the fields of `call`, of `event` where
 * the event is known, operand types, the type the field takes), and literal opening hours.
 */
export function checkExpressions(
  doc: FlowDocument,
  expressions: readonly FoundExpression[],
  out: Diagnostic[],
): void {
  const scopes = new Map<string, { body: FlowBody; base: Path; input: TypeShape; vars: TypeShape }>();
  const scopeFor = (path: Path) => {
    const key = path[0] === 'subflows' && typeof path[1] === 'string' ? path[1] : '';
    let scope = scopes.get(key);
    if (!scope) {
      const body: FlowBody = (key === '' ? doc : doc.subflows?.[key]) ?? { start: '', states: {} };
      const inputs: Record<string, TypeShape> = {};
      for (const [name, input] of Object.entries(body.inputs ?? {})) inputs[name] = inputShape(input);
      scope = {
        body,
        base: key === '' ? [] : ['subflows', key],
        input: recordShape('input', inputs),
        // Reading a variable nothing declares or assigns is an error: it is always missing.
        vars: recordShape('vars', variableShapes(body)),
      };
      scopes.set(key, scope);
    }
    return scope;
  };
  for (const found of expressions) {
    const dashed = dashedRead(found.source, scopeFor(found.path));
    if (dashed) {
      out.push(
        diagnostic(
          'unknown-variable',
          found.path,
          `In expression "${found.source}": ${dashed.written} is read as ${dashed.written.split('-').join(' - ')}. A name with "-" is read with brackets: ${readName(dashed.root, dashed.name)}.`,
          { offset: dashed.offset },
        ),
      );
      continue;
    }
    const result = compileExpression(found.source, found.role);
    if (!result.ok) {
      out.push(
        diagnostic(
          result.problem.kind,
          found.path,
          `In expression "${found.source}": ${result.problem.message}.`,
          {
            offset: result.problem.offset,
          },
        ),
      );
      continue;
    }
    const scope = scopeFor(found.path);
    const event = eventAt(scope.body, scope.base, found.path.slice(scope.base.length));
    const roots: ExpressionRoots = { input: scope.input, vars: scope.vars, call: callShape, event };
    const eventRead = result.expression.references.get('event')?.[0];
    if (event === undefined && eventRead !== undefined)
      out.push(
        diagnostic(
          'unknowable-event',
          found.path,
          `In expression "${found.source}": "event" here is whatever the flow handled last, so its fields cannot be checked (nor relied on). Read event in an on handler or a step's on, and keep what you need with set.`,
          { severity: 'warning', offset: eventRead.offset },
        ),
      );
    for (const problem of checkExpressionTypes(
      result.expression,
      roots,
      found.role,
      expectedTypes(found.expected),
    ))
      out.push(
        diagnostic(
          problem.kind,
          found.path,
          problem.root === 'vars' || problem.root === 'input'
            ? problem.message
            : `In expression "${found.source}": ${problem.message}`,
          { severity: problem.severity, offset: problem.offset },
        ),
      );
    for (const call of result.expression.literalCalls) {
      if (call.fn !== 'isOpen') continue;
      const hours = call.args[1];
      const zone = call.args[2];
      if (hours !== undefined) {
        const parsed = parseOpeningHours(hours);
        if (!parsed.ok)
          out.push(
            diagnostic('invalid-hours', found.path, `Opening hours "${hours}": ${parsed.problem}.`, {
              offset: call.offset,
            }),
          );
      }
      if (zone !== undefined && !isKnownTimeZone(zone))
        out.push(
          diagnostic(
            'invalid-hours',
            found.path,
            `Unknown time zone "${zone}"; use an IANA name such as "Europe/Paris".`,
            { offset: call.offset },
          ),
        );
    }
  }
}
