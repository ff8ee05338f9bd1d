/**
 * Writes packages/dsl/schema/flow.schema.json from the flow model.
 * Run: npm run generate-schema -w @ringflow/dsl  (a test fails when the file is out of date).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOW_SCHEMA_FILE, flowJsonSchemaText } from '../src/schema/flowJsonSchema.ts';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(packageRoot, FLOW_SCHEMA_FILE);
writeFileSync(target, flowJsonSchemaText());
console.log(`wrote ${target}`);
