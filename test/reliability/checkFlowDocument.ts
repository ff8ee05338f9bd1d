import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileFlow, type Diagnostic, parseFlow } from '@ringflow/dsl';
import { expect } from 'vitest';

const flowsDir = fileURLToPath(new URL('../../flows/', import.meta.url));
/** The YAML flows shipped in flows/, with their text (`*.test.yaml` files are scenario tests, not flows). */
export const shippedFlows = readdirSync(flowsDir)
  .filter((f) => f.endsWith('.yaml') && !f.endsWith('.test.yaml'))
  .map((f) => ({ file: `flows/${f}`, text: readFileSync(`${flowsDir}${f}`, 'utf8') }));

/**
 * Parses, validates and (when valid) compiles a document. Nothing may throw: a broken document is
 * answered with diagnostics, each error placed at a line and column inside the document.
 */
export function checkDocument(text: string, file: string): 'valid' | 'invalid' {
  const result = parseFlow(text, file);
  if (result.ok) {
    compileFlow(result.flow);
    return 'valid';
  }
  const errors = result.diagnostics.filter((d: Diagnostic) => d.severity === 'error');
  expect(errors.length, 'an invalid document names at least one error').toBeGreaterThan(0);
  const lines = text.split('\n').length;
  for (const d of errors) {
    expect(d.file, d.message).toBe(file);
    expect(d.line, `${d.code} ${d.message}: line`).toBeGreaterThanOrEqual(1);
    expect(d.line!, `${d.code} ${d.message}: line inside the document`).toBeLessThanOrEqual(lines + 1);
    expect(d.column, `${d.code} ${d.message}: column`).toBeGreaterThanOrEqual(1);
    expect(typeof d.code === 'string' || typeof d.code === 'number').toBe(true);
    expect(d.message.length).toBeGreaterThan(10);
  }
  return 'invalid';
}
