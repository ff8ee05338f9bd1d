import { describe, expect, it } from 'vitest';
import { pathSegments } from './pathSegments.ts';

describe('pathSegments', () => {
  it('splits a path below the interface root', () => {
    expect(pathSegments('/channels/abc/play')).toEqual(['channels', 'abc', 'play']);
    expect(pathSegments('')).toEqual([]);
  });

  it('stops at the first empty segment, as the real router does', () => {
    expect(pathSegments('/channels//abc')).toEqual(['channels']);
    expect(pathSegments('//channels')).toEqual([]);
    expect(pathSegments('/endpoints/PJSIP//sendMessage')).toEqual(['endpoints', 'PJSIP']);
  });
});
