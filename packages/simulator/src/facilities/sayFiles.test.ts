import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { characterFiles, digitFiles, numberFiles } from './sayFiles.ts';

describe('sayFiles', () => {
  it('says each digit, with star, pound and minus, skipping other characters', () => {
    expect(digitFiles('12')).toEqual(['digits/1', 'digits/2']);
    expect(digitFiles('*0#-x')).toEqual(['digits/star', 'digits/0', 'digits/pound', 'digits/minus']);
  });

  it('says numbers in English words', () => {
    expect(numberFiles(0)).toEqual(['digits/0']);
    expect(numberFiles(7)).toEqual(['digits/7']);
    expect(numberFiles(19)).toEqual(['digits/19']);
    expect(numberFiles(42)).toEqual(['digits/40', 'digits/2']);
    expect(numberFiles(90)).toEqual(['digits/90']);
    expect(numberFiles(305)).toEqual(['digits/3', 'digits/hundred', 'digits/5']);
    expect(numberFiles(-1234)).toEqual([
      'digits/minus',
      'digits/1',
      'digits/thousand',
      'digits/2',
      'digits/hundred',
      'digits/30',
      'digits/4',
    ]);
    expect(numberFiles(250_000_017)).toEqual([
      'digits/2',
      'digits/hundred',
      'digits/50',
      'digits/million',
      'digits/17',
    ]);
    expect(numberFiles(1_000_000_000)).toBeUndefined();
    expect(numberFiles(1.5)).toBeUndefined();
  });

  it('only ever names files that exist in the core set', () => {
    const known = /^digits\/(\d|1\d|[2-9]0|hundred|thousand|million|minus)$/;
    fc.assert(
      fc.property(fc.integer({ min: -999_999_999, max: 999_999_999 }), (n) => {
        const files = numberFiles(n);
        expect(files).toBeDefined();
        for (const file of files ?? []) expect(file).toMatch(known);
      }),
    );
  });

  it('spells characters', () => {
    expect(characterFiles('Ab1 @!')).toEqual([
      'letters/a',
      'letters/b',
      'digits/1',
      'letters/space',
      'letters/at',
      'letters/exclaimation-point',
    ]);
    expect(characterFiles('é%')).toEqual([]);
  });
});
