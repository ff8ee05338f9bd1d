/**
 * Writes src/generated/types.ts from the interface description: one interface per model, the
 * discriminated union of events, parameter types per operation and the client's API interfaces.
 * Run with `npm run generate`; a test fails when the committed file is out of date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateTypes } from '../src/description/generateTypes.ts';

const target = fileURLToPath(new URL('../src/generated/types.ts', import.meta.url));
writeFileSync(target, generateTypes());
console.log(`wrote ${target}`);
