import { flowSchema } from '../model/flowSchema.ts';
import { toJsonSchema } from './toJsonSchema.ts';

/** Where the shipped schema lives, relative to the package root. */
export const FLOW_SCHEMA_FILE = 'schema/flow.schema.json';

/**
 * The JSON Schema of the YAML flow format, generated from the same model the validator uses.
 * Shipped as `packages/dsl/schema/flow.schema.json`; point editors at it with
 * `# yaml-language-server: $schema=<path>/flow.schema.json`.
 */
export function flowJsonSchema(): Record<string, unknown> {
  return toJsonSchema(flowSchema.node, {
    id: 'https://ringflow.dev/schema/flow.schema.json',
    title: 'ringflow flow',
    description:
      'A ringflow call flow: states with steps, transitions, timers and handlers. See packages/dsl/README.md.',
  });
}

/** The schema as the shipped file's text (stable key order, two-space indent, final newline). */
export function flowJsonSchemaText(): string {
  return `${JSON.stringify(flowJsonSchema(), null, 2)}\n`;
}
