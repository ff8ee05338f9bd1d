import { readdirSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FLOW_SCHEMA_FILE, flowJsonSchemaText } from './flowJsonSchema.ts';

const packageRoot = new URL('../../', import.meta.url);
const flowsDir = new URL('../../../../flows/', import.meta.url);
const shipped = readFileSync(new URL(FLOW_SCHEMA_FILE, packageRoot), 'utf8');

describe('the shipped JSON Schema', () => {
  it('is up to date with the model (run `npm run generate-schema -w @ringflow/dsl` if not)', () => {
    // Compared as data: formatters may re-indent the file.
    expect(JSON.parse(shipped)).toEqual(JSON.parse(flowJsonSchemaText()));
  });

  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(shipped) as object);

  it('accepts every flow under flows/', () => {
    const files = readdirSync(flowsDir).filter((f) => f.endsWith('.yaml') && !f.endsWith('.test.yaml')); // *.test.yaml: scenario files
    expect(files).toContain('ivr.yaml');
    for (const file of files) {
      const ok = validate(parse(readFileSync(new URL(file, flowsDir), 'utf8')));
      expect(validate.errors ?? [], file).toEqual([]);
      expect(ok).toBe(true);
    }
  });

  it('rejects what the validator rejects for shape: unknown steps and fields, wrong types', () => {
    const flow = (step: unknown) => ({ name: 'x', start: 'a', states: { a: { steps: [step] } } });
    expect(validate(flow('answer'))).toBe(true);
    expect(validate(flow({ play: { media: 'sound:x' } }))).toBe(true);
    expect(validate(flow({ plya: { media: 'sound:x' } }))).toBe(false);
    expect(validate(flow({ play: { media: 'sound:x', bargin: true } }))).toBe(false);
    expect(validate(flow({ gather: { maxDigits: '4' } }))).toBe(false);
    expect(validate(flow({ dial: { endpoint: { expr: "'PJSIP/' + vars.ext" } } }))).toBe(true);
  });
});
