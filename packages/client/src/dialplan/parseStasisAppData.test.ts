import { describe, expect, it } from 'vitest';
import { parseStasisAppData } from './parseStasisAppData.ts';

describe('parseStasisAppData', () => {
  it('reads the application and arguments a real server lists (GET /channels replies)', () => {
    expect(parseStasisAppData({ app_name: 'Stasis', app_data: 'demo-app' })).toEqual({
      app: 'demo-app',
      args: [],
    });
    expect(parseStasisAppData({ app_name: 'Stasis', app_data: 'demo-app,alpha,beta' })).toEqual({
      app: 'demo-app',
      args: ['alpha', 'beta'],
    });
    expect(parseStasisAppData({ app_name: 'Stasis', app_data: 'demo-app,back-from-dialplan' })).toEqual({
      app: 'demo-app',
      args: ['back-from-dialplan'],
    });
  });

  it('splits as the Stasis application does: quotes, backslashes, brackets, trailing comma', () => {
    expect(parseStasisAppData({ app_name: 'Stasis', app_data: 'ivr,a,"b,c",d\\,e' })?.args).toEqual([
      'a',
      'b,c',
      'd,e',
    ]);
    expect(parseStasisAppData({ app_name: 'Stasis', app_data: 'ivr,f(x,y),[1,2]' })?.args).toEqual([
      'f(x,y)',
      '[1,2]',
    ]);
    expect(parseStasisAppData({ app_name: 'Stasis', app_data: 'ivr,' })?.args).toEqual(['']);
    expect(parseStasisAppData({ app_name: 'Stasis', app_data: 'ivr,,x' })?.args).toEqual(['', 'x']);
  });

  it('keeps text past the 128th argument in the last one, unsplit', () => {
    const data = ['ivr', ...Array.from({ length: 130 }, (_, i) => `a${i}`)].join(',');
    const parsed = parseStasisAppData({ app_name: 'Stasis', app_data: data });
    expect(parsed?.args).toHaveLength(128);
    expect(parsed?.args[127]).toBe('a127,a128,a129');
  });

  it('is undefined for a channel outside Stasis or without an application name', () => {
    expect(parseStasisAppData({ app_name: 'AppDial2', app_data: '(Outgoing Line)' })).toBeUndefined();
    expect(parseStasisAppData({ app_name: 'Stasis', app_data: '' })).toBeUndefined();
    expect(parseStasisAppData({ app_name: 'Stasis' })).toBeUndefined();
    expect(parseStasisAppData({})).toBeUndefined();
  });
});
