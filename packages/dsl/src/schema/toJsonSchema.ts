import type { Meta, SchemaNode } from './s.ts';

type Json = Record<string, unknown>;

function withMeta(json: Json, meta: Meta): Json {
  const out: Json = { ...json };
  if (meta.description) out.description = meta.description;
  if (meta.default !== undefined) out.default = meta.default;
  if (meta.examples) out.examples = meta.examples;
  return out;
}

const EXPR_SCHEMA: Json = {
  type: 'object',
  description: 'A value computed when the step runs: one whole CEL expression.',
  properties: { expr: { type: 'string', description: 'A CEL expression, e.g. "vars.tries + 1".' } },
  required: ['expr'],
  additionalProperties: false,
};

/**
 * Converts a schema into a JSON Schema (draft-07, the dialect editors support best). Named
 * schemas land once under `definitions`.
 *
 * @example
 * const json = toJsonSchema(flowSchema.node, { title: 'ringflow flow' });
 */
export function toJsonSchema(
  root: SchemaNode,
  header: { id?: string; title: string; description?: string },
): Json {
  const definitions: Record<string, Json> = {};
  const convert = (node: SchemaNode): Json => {
    switch (node.kind) {
      case 'named': {
        if (!(node.name in definitions)) {
          definitions[node.name] = {}; // placeholder first: allows recursion
          definitions[node.name] = convert(node.node());
        }
        return { $ref: `#/definitions/${node.name}` };
      }
      case 'string': {
        const json: Json = { type: 'string' };
        if (node.enum) json.enum = [...node.enum];
        if (node.pattern !== undefined) json.pattern = node.pattern;
        return withMeta(json, node.meta);
      }
      case 'number':
        return withMeta(
          {
            type: node.integer ? 'integer' : 'number',
            ...(node.min !== undefined ? { minimum: node.min } : {}),
            ...(node.max !== undefined ? { maximum: node.max } : {}),
          },
          node.meta,
        );
      case 'boolean':
        return withMeta({ type: 'boolean' }, node.meta);
      case 'null':
        return withMeta({ type: 'null' }, node.meta);
      case 'any':
        return withMeta({}, node.meta);
      case 'array':
        return withMeta(
          {
            type: 'array',
            items: convert(node.items),
            ...(node.minItems !== undefined ? { minItems: node.minItems } : {}),
          },
          node.meta,
        );
      case 'object': {
        const properties: Record<string, Json> = {};
        for (const [key, value] of Object.entries(node.props)) properties[key] = convert(value);
        return withMeta(
          {
            type: 'object',
            properties,
            ...(node.required.length > 0 ? { required: [...node.required] } : {}),
            additionalProperties: false,
          },
          node.meta,
        );
      }
      case 'record':
        return withMeta(
          {
            type: 'object',
            ...(node.keyPattern !== undefined ? { propertyNames: { pattern: node.keyPattern } } : {}),
            additionalProperties: convert(node.values),
          },
          node.meta,
        );
      case 'union':
        return withMeta({ anyOf: node.options.map(convert) }, node.meta);
      case 'expr':
        return withMeta({ anyOf: [convert(node.inner), EXPR_SCHEMA] }, node.meta);
      case 'condition':
        return withMeta(
          {
            anyOf: [
              { type: 'string', description: 'A CEL expression that yields true or false.' },
              { type: 'boolean' },
            ],
          },
          node.meta,
        );
      case 'keyed': {
        const options: Json[] = [];
        if (node.bare.length > 0) options.push({ type: 'string', enum: [...node.bare] });
        for (const [key, value] of Object.entries(node.branches)) {
          const body = convert(value);
          options.push({
            type: 'object',
            properties: { [key]: node.bare.includes(key) ? { anyOf: [body, { type: 'null' }] } : body },
            required: [key],
            additionalProperties: false,
            ...(typeof body.description === 'string'
              ? { description: body.description, markdownDescription: body.description }
              : {}),
          });
        }
        return withMeta({ anyOf: options }, node.meta);
      }
    }
  };
  const body = convert(root);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    ...(header.id ? { $id: header.id } : {}),
    title: header.title,
    ...(header.description ? { description: header.description } : {}),
    ...body,
    definitions,
  };
}
