import { describe, expect, it } from 'vitest';
import { parseRequestTarget } from './parseRequestTarget.ts';

describe('parseRequestTarget', () => {
  it('splits path and decoded query, keeping the path as sent', () => {
    expect(parseRequestTarget('/ari/channels/a%2Fb?x=1&x=2&y=%20z')).toEqual({
      path: '/ari/channels/a%2Fb',
      query: { x: '2', y: ' z' },
    });
  });

  it('reads absolute-form targets and refuses what is not a path', () => {
    expect(parseRequestTarget('http://127.0.0.1:8088/ari/ping?a=b')).toEqual({
      path: '/ari/ping',
      query: { a: 'b' },
    });
    expect(parseRequestTarget('*')).toBeUndefined();
    expect(parseRequestTarget('ari/ping')).toBeUndefined();
  });

  it('never takes a double slash for a host name', () => {
    expect(parseRequestTarget('//evil.example/ari')?.path).toBe('//evil.example/ari');
  });

  it('keeps malformed escapes instead of failing', () => {
    expect(parseRequestTarget('/ari/x?a=%zz')?.query).toEqual({ a: '%zz' });
  });
});
