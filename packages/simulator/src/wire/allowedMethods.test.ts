import { describe, expect, it } from 'vitest';
import { allowedMethods } from './allowedMethods.ts';

describe('allowedMethods', () => {
  it('lists OPTIONS then the methods of the resource, in the real server order', () => {
    expect(allowedMethods('/channels')).toEqual(['OPTIONS', 'GET', 'POST']);
    expect(allowedMethods('/channels/abc')).toEqual(['OPTIONS', 'GET', 'POST', 'DELETE']);
    expect(allowedMethods('/channels/abc/play')).toEqual(['OPTIONS', 'POST']);
  });

  it('prefers a literal segment to a parameter, without backtracking', () => {
    expect(allowedMethods('/channels/create')).toEqual(['OPTIONS', 'POST']);
    expect(allowedMethods('/channels/create/play')).toBeUndefined();
  });

  it('reads /core as /asterisk, and the short dynamic configuration path when nothing fixed matches', () => {
    expect(allowedMethods('/core/ping')).toEqual(allowedMethods('/asterisk/ping'));
    expect(allowedMethods('/core/logging/console/rotate')).toEqual(['OPTIONS', 'PUT']);
    expect(allowedMethods('/core/res_pjsip/endpoint/alice')).toEqual(['OPTIONS', 'GET', 'PUT', 'DELETE']);
  });

  it('knows no resource at unknown, empty or trailing-slash paths', () => {
    expect(allowedMethods('/nonexistent')).toBeUndefined();
    expect(allowedMethods('/channels/')).toBeUndefined();
    expect(allowedMethods('')).toBeUndefined();
  });
});
