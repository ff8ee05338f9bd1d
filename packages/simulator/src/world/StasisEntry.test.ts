import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitArguments } from '@ringflow/client';
import { stasisEntryFromArgs, stasisEntryFromText } from './StasisEntry.ts';

describe('StasisEntry', () => {
  it('escapes any arguments so that splitting the data gives the application and them back', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ',', '"', '\\', '(', ')', '[', ']', ' ') });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (args) => {
        const entry = stasisEntryFromArgs('ivr', args);
        expect(splitArguments(entry.appData)).toEqual(['ivr', ...args]);
      }),
    );
  });

  it('shows no arguments as the bare application name', () => {
    expect(stasisEntryFromArgs('ivr', []).appData).toBe('ivr');
    expect(stasisEntryFromText('ivr', undefined)).toEqual({ app: 'ivr', args: [], appData: 'ivr' });
    expect(stasisEntryFromText('ivr', '')).toEqual({ app: 'ivr', args: [], appData: 'ivr' });
  });

  it('splits appArgs text as Stasis() does, keeping the text as given', () => {
    expect(stasisEntryFromText('ivr', '"a,b",c\\,d,')).toEqual({
      app: 'ivr',
      args: ['a,b', 'c,d', ''],
      appData: 'ivr,"a,b",c\\,d,',
    });
  });
});
