import { findModel } from '@ringflow/client/interface';

/**
 * What the validator knows of a value an expression reads: a CEL type (`string`, `int`, `dyn`
 * when it cannot be known, ...) or a record with named fields. `unknownField` says how reading a
 * field the record does not list is reported: an error where the fields are ours (the call, step
 * results), a warning where a newer server may add fields (server events).
 */
export type TypeShape =
  | string
  | {
      readonly fields: Readonly<Record<string, TypeShape>>;
      readonly unknownField: 'error' | 'warning';
      /** How the record is named in messages: `call`, `the menu step's "choice" result`. */
      readonly noun: string;
    };

/** Shape of a record. */
export function recordShape(
  noun: string,
  fields: Readonly<Record<string, TypeShape>>,
  unknownField: 'error' | 'warning' = 'error',
): TypeShape {
  return { fields, unknownField, noun };
}

/** The fields of `call` (see `FlowCall`). */
export const callShape: TypeShape = recordShape('call', {
  channelId: 'string',
  caller: recordShape('call.caller', { number: 'string', name: 'string' }),
  extension: 'string',
  context: 'string',
  language: 'string',
  args: 'list<string>',
  variables: 'map<string, string>',
});

/**
 * The CEL type of a literal as it reaches an expression: whole numbers are `int`, others
 * `double`; null says nothing (`dyn`).
 * @example shapeOfValue(0) // 'int'
 */
export function shapeOfValue(value: unknown): string {
  if (value === null || value === undefined) return 'dyn';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'number':
      return Number.isSafeInteger(value) ? 'int' : 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'object':
      return 'map';
    default:
      return 'dyn';
  }
}

const SWAGGER_PRIMITIVES: Readonly<Record<string, string>> = {
  string: 'string',
  int: 'int',
  long: 'int',
  double: 'double',
  boolean: 'bool',
  Date: 'string', // events carry timestamps as text
  object: 'dyn',
};

/** Fields every server event has (from `Message` and `Event`). */
const EVENT_BASE: Readonly<Record<string, TypeShape>> = {
  type: 'string',
  asterisk_id: 'string',
  application: 'string',
  timestamp: 'string',
};

function swaggerShape(type: string, depth: number): TypeShape {
  const primitive = SWAGGER_PRIMITIVES[type];
  if (primitive) return primitive;
  const list = /^List\[(.+)\]$/.exec(type);
  if (list) {
    const item = swaggerShape(list[1]!, depth + 1);
    return typeof item === 'string' ? `list<${item}>` : 'list';
  }
  return depth > 3 ? 'dyn' : (modelShape(type, depth + 1) ?? 'dyn');
}

/** The shape of a model of the interface description (`Channel`, `ChannelDtmfReceived`...). */
export function modelShape(id: string, depth = 0): TypeShape | undefined {
  const model = findModel(id);
  if (!model) return undefined;
  const fields: Record<string, TypeShape> = {};
  for (const [name, property] of Object.entries(model.properties))
    fields[name] = swaggerShape(property.type, depth);
  return recordShape(
    depth === 0 ? `the ${id} event` : `a ${id}`,
    depth === 0 ? { ...EVENT_BASE, ...fields } : fields,
    'warning',
  );
}

/**
 * One shape for a value that may have any of several shapes (the `hangup` handler sees three
 * event types): every field of any of them, typed when they agree, else `dyn`.
 */
export function unionShape(noun: string, shapes: readonly TypeShape[]): TypeShape {
  const records = shapes.filter((s): s is Exclude<TypeShape, string> => typeof s !== 'string');
  if (records.length === 0) return 'dyn';
  if (records.length === 1) return records[0]!;
  const fields: Record<string, TypeShape> = {};
  for (const record of records)
    for (const [name, shape] of Object.entries(record.fields))
      fields[name] =
        fields[name] === undefined || JSON.stringify(fields[name]) === JSON.stringify(shape) ? shape : 'dyn';
  return recordShape(noun, fields, records.some((r) => r.unknownField === 'warning') ? 'warning' : 'error');
}
