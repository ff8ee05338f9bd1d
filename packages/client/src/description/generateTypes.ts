import { handleSpecs } from './handles.ts';
import { RESOURCE_NAMES, eventTypeNames, models, operationsByResource, pathParamNames } from './index.ts';
import type { ModelSpec, OperationSpec, ParamSpec } from './spec.ts';

const PRIMITIVES: Record<string, string> = {
  string: 'string',
  int: 'number',
  long: 'number',
  double: 'number',
  boolean: 'boolean',
  Date: 'string',
  object: 'Record<string, unknown>',
  binary: 'Uint8Array',
  void: 'void',
};

/** Maps a Swagger type (`List[Channel]`, `int`, `Channel`) to a TypeScript type. */
function tsType(swagger: string): string {
  const list = /^List\[(.+)\]$/.exec(swagger);
  if (list) return `${tsType(list[1]!)}[]`;
  return PRIMITIVES[swagger] ?? swagger;
}

function literalUnion(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(' | ');
}

function propName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

function sinceTag(since: string | undefined): string {
  return since ? ` @since interface ${since}` : '';
}

const eventNames = new Set(eventTypeNames);
const modelById = new Map<string, ModelSpec>(models.map((m) => [m.id, m]));

function modelInterface(m: ModelSpec): string {
  const isEvent = eventNames.has(m.id);
  const base =
    m.id === 'Event' ? 'MessageBase' : isEvent ? 'EventBase' : m.id === 'MissingParams' ? 'MessageBase' : '';
  const name = m.id === 'Message' ? 'MessageBase' : m.id === 'Event' ? 'EventBase' : m.id;
  const lines = [`/** ${m.description}${sinceTag(m.since)} */`];
  lines.push(`export interface ${name}${base ? ` extends ${base}` : ''} {`);
  if (isEvent || m.id === 'MissingParams') lines.push(`  type: ${JSON.stringify(m.id)};`);
  for (const [prop, p] of Object.entries(m.properties)) {
    if ((isEvent || m.id === 'MissingParams') && prop === 'type') continue;
    const t = p.enum ? literalUnion(p.enum) : tsType(p.type);
    const doc = p.since ? `  /**${sinceTag(p.since)} */\n` : '';
    lines.push(`${doc}  ${propName(prop)}${p.required ? '' : '?'}: ${t};`);
  }
  lines.push('}');
  return lines.join('\n');
}

function paramType(p: ParamSpec): string {
  if (p.in === 'body') {
    if (p.name === 'fields') return 'ConfigTuple[]';
    if (p.name === 'variables') return 'Record<string, unknown>';
    return 'Record<string, unknown>';
  }
  const one = p.enum ? literalUnion(p.enum) : tsType(p.type);
  return p.allowMultiple
    ? `${one.includes('|') ? `(${one})` : one} | readonly ${one.includes('|') ? `(${one})` : one}[]`
    : one;
}

function pascal(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function paramsTypeName(op: OperationSpec): string {
  return `${pascal(op.resource)}${pascal(op.name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()))}Params`;
}

function paramsInterface(op: OperationSpec): string {
  const lines = [`/** Parameters of \`${op.resource}.${op.name}\` (${op.method} ${op.path}). */`];
  lines.push(`export interface ${paramsTypeName(op)} {`);
  for (const p of op.params) {
    const def = p.default !== undefined ? ` Default: ${JSON.stringify(p.default)}.` : '';
    const doc = def || p.since ? `  /**${def}${sinceTag(p.since)} */\n` : '';
    lines.push(`${doc}  ${propName(p.name)}${p.required ? '' : '?'}: ${paramType(p)};`);
  }
  lines.push('}');
  return lines.join('\n');
}

function hasRequired(op: OperationSpec, bound: readonly string[] = []): boolean {
  return op.params.some((p) => p.required && !bound.includes(p.name));
}

function method(op: OperationSpec, bound: readonly string[] = []): string {
  const params = bound.length ? `Omit<${paramsTypeName(op)}, ${literalUnion(bound)}>` : paramsTypeName(op);
  const opt = hasRequired(op, bound) ? '' : '?';
  const result = tsType(op.returns);
  return `  /** ${op.summary}${sinceTag(op.since)} */\n  ${propName(op.name)}(params${opt}: ${params}, options?: RequestOptions): Promise<${result}>;`;
}

export function generateTypes(): string {
  const out: string[] = [
    '// Generated from the interface description by `npm run generate`. Do not edit by hand.',
    "import type { RequestOptions } from '../rest/requestOptions.ts';",
    '',
  ];
  for (const m of models) out.push(modelInterface(m), '');
  const known = eventTypeNames.filter((n) => modelById.has(n));
  out.push(
    `/** Every event type the description knows. */\nexport type AriEvent =\n  | ${known.join('\n  | ')};`,
    '',
  );
  out.push(`/** Names of the known event types. */\nexport type AriEventType = AriEvent['type'];`, '');
  out.push(
    '/** Messages that are not events (a reply about missing parameters). */\nexport type AriMessage = AriEvent | MissingParams;',
    '',
  );
  for (const r of RESOURCE_NAMES) for (const op of operationsByResource[r]) out.push(paramsInterface(op), '');
  for (const r of RESOURCE_NAMES) {
    const ops = operationsByResource[r].filter((op: OperationSpec) => !op.upgrade);
    out.push(
      `/** The \`${r}\` resource. */\nexport interface ${pascal(r)}Api {\n${ops.map((op: OperationSpec) => method(op)).join('\n')}\n}`,
      '',
    );
  }
  for (const [name, h] of Object.entries(handleSpecs)) {
    const ops = operationsByResource[h.resource].filter(
      (op: OperationSpec) => !op.upgrade && h.bind.every((b) => pathParamNames(op.path).includes(b)),
    );
    const idDoc = h.bind.map((b) => `  readonly ${b}: string;`).join('\n');
    out.push(
      `/** A \`${h.resource}\` handle bound to ${h.bind.join(' + ')}. */\nexport interface ${pascal(name)}Handle {\n${idDoc}\n${ops.map((op: OperationSpec) => method(op, h.bind)).join('\n')}\n}`,
      '',
    );
  }
  return out.join('\n');
}
