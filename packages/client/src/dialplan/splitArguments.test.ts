import { describe, expect, it } from 'vitest';
import { splitArguments } from './splitArguments.ts';

describe('splitArguments', () => {
  it.each([
    ['', []],
    ['a', ['a']],
    ['OracleDialplanEvent,foo: bar,baz: qux', ['OracleDialplanEvent', 'foo: bar', 'baz: qux']],
    ['a,,b', ['a', '', 'b']],
    ['a,', ['a', '']],
    ['"a,b",c', ['a,b', 'c']],
    ['a\\,b,c', ['a,b', 'c']],
    ['x(1,2),y', ['x(1,2)', 'y']],
    ['[1,2],y', ['[1,2]', 'y']],
    ['"say \\"hi\\"",z', ['say "hi"', 'z']],
  ])('%j -> %j', (data, expected) => {
    expect(splitArguments(data)).toEqual(expected);
  });

  it('leaves the rest unsplit in the last argument when limited', () => {
    expect(splitArguments('files,opt1,opt2', ',', 2)).toEqual(['files', 'opt1,opt2']);
  });
});
