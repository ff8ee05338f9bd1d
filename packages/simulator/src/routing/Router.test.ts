import { describe, expect, it } from 'vitest';
import { routeRequest } from './Router.ts';

function opOf(method: string, path: string): string {
  const m = routeRequest(method, path);
  return 'op' in m ? `${m.op.resource}.${m.op.name}` : `${m.status} ${m.message}`;
}

describe('routeRequest', () => {
  it('routes by the description, literal segments before parameters', () => {
    expect(opOf('POST', '/channels/abc/answer')).toBe('channels.answer');
    expect(opOf('POST', '/channels/create')).toBe('channels.create');
    expect(opOf('GET', '/channels/create')).toBe('405 Invalid method');
    expect(opOf('POST', '/channels/abc')).toBe('channels.originateWithId');
  });

  it('serves the server resource under /asterisk and /core, and the short dynamic-config form', () => {
    expect(opOf('GET', '/asterisk/ping')).toBe('asterisk.ping');
    expect(opOf('GET', '/core/ping')).toBe('asterisk.ping');
    expect(opOf('GET', '/core/res_mwi_external/mailboxes/m1')).toBe('asterisk.getObject');
    expect(opOf('PUT', '/core/logging/x/rotate')).toBe('asterisk.rotateLog');
    expect(opOf('GET', '/core/logging/x/rotate')).toBe('405 Invalid method');
  });

  it('refuses like the real server: unknown resource, bad method, trailing slash', () => {
    expect(opOf('GET', '/nonexistent')).toBe('404 Resource not found');
    expect(opOf('GET', '/channels/c1/nonexistent')).toBe('404 Resource not found');
    expect(opOf('PATCH', '/channels')).toBe('405 Invalid method');
    expect(opOf('PUT', '/channels')).toBe('405 Invalid method');
    expect(opOf('GET', '/channels/')).toBe('404 ARI URLs do not end with a slash. Try /ari/channels');
    expect(opOf('GET', '/')).toBe('405 Invalid method');
  });

  it('decodes path parameters; a raw slash is another segment', () => {
    const m = routeRequest('GET', '/recordings/stored/sub%2Ft2');
    expect('op' in m && m.pathParams).toEqual({ recordingName: 'sub/t2' });
    expect(opOf('GET', '/recordings/stored/sub/t2')).toBe('404 Resource not found');
  });

  it('reads no segment after an empty one, as the real router does', () => {
    expect(opOf('GET', '/channels//dial')).toBe('channels.list');
    expect(opOf('POST', '/bridges//addChannel')).toBe('bridges.create');
    expect(opOf('HEAD', '/channels//ring')).toBe('405 Invalid method');
    expect(opOf('GET', '//channels')).toBe('405 Invalid method');
    expect(opOf('HEAD', '/recordings/live//stop')).toBe('405 Invalid method');
  });

  it('refuses every method on a path that only leads to routes (405, not 404)', () => {
    expect(opOf('GET', '/recordings/live')).toBe('405 Invalid method');
    expect(opOf('DELETE', '/asterisk')).toBe('405 Invalid method');
    expect(opOf('GET', '/asterisk/config/dynamic/res_pjsip')).toBe('405 Invalid method');
    expect(opOf('GET', '/recordings/nonexistent')).toBe('404 Resource not found');
  });
});
