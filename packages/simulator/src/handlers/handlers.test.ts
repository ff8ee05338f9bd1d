import { operations } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { handlers } from './index.ts';

describe('handlers', () => {
  it('cover every REST operation of the description', () => {
    const missing = operations
      .filter((op) => !op.upgrade && !handlers[op.resource]?.[op.name])
      .map((op) => `${op.resource}.${op.name}`);
    expect(missing).toEqual([]);
  });
});
