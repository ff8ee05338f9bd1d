import { describe, expect, it } from 'vitest';
import { ErrorCode, RingflowError } from '../errors/index.ts';
import { buildEventStreamRequest } from './buildEventStreamRequest.ts';

describe('buildEventStreamRequest', () => {
  it('builds the URLs a real server accepted (see the recorded handshakes)', () => {
    const demo = buildEventStreamRequest({
      url: 'http://127.0.0.1:8088/ari',
      apps: 'demo-app',
      username: 'demo',
      password: 'demo',
      auth: 'api_key',
      subscribeAll: true,
    });
    expect(demo.url).toBe('ws://127.0.0.1:8088/ari/events?app=demo-app&api_key=demo:demo&subscribeAll=true');
    expect(demo.headers).toEqual({});
    const multi = buildEventStreamRequest({
      url: 'http://127.0.0.1:8088/ari/',
      apps: ['multi-one', 'multi-two'],
      username: 'demo',
      password: 'demo',
    });
    expect(multi.url).toBe('ws://127.0.0.1:8088/ari/events?app=multi-one,multi-two');
    expect(multi.headers).toEqual({ Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` });
    expect(multi.apps).toEqual(['multi-one', 'multi-two']);
    expect(multi.subscribeAll).toBe(false);
  });

  it('hides the password in the URL shown to people', () => {
    const r = buildEventStreamRequest({
      url: 'https://pbx.example:8089',
      apps: ['a'],
      username: 'u',
      password: 's3cret',
      auth: 'api_key',
    });
    expect(r.url).toBe('wss://pbx.example:8089/ari/events?app=a&api_key=u:s3cret');
    expect(r.redactedUrl).toBe('wss://pbx.example:8089/ari/events?app=a&api_key=u:***');
    expect(r.redactedUrl).not.toContain('s3cret');
  });

  it('encodes odd characters in names and passwords', () => {
    const r = buildEventStreamRequest({
      url: 'ws://h/ari',
      apps: ['a b&c'],
      username: 'u',
      password: 'p&w=d',
      auth: 'api_key',
    });
    expect(r.url).toBe('ws://h/ari/events?app=a%20b%26c&api_key=u:p%26w%3Dd');
    expect(new URL(r.url).searchParams.get('api_key')).toBe('u:p&w=d');
  });

  it('sends no credentials when none are given (a server without authentication)', () => {
    const r = buildEventStreamRequest({ url: 'http://127.0.0.1:8088/ari', apps: ['a'] });
    expect(r.headers).toEqual({});
    expect(r.credentials).toBeUndefined();
    expect(r.url).toBe('ws://127.0.0.1:8088/ari/events?app=a');
  });

  it.each([
    [{ url: 'not a url', apps: ['a'] }, 'options.url'],
    [{ url: 'ftp://h/ari', apps: ['a'] }, 'options.url'],
    [{ url: 'http://u:p@h/ari', apps: ['a'] }, 'must not contain credentials'],
    [{ url: 'http://h/ari?x=1', apps: ['a'] }, 'without ?query'],
    [{ url: 'http://h/ari', apps: ['a'], auth: 'digest' as 'basic' }, 'options.auth'],
    [{ url: 'http://h/ari', apps: [] }, 'options.apps'],
    [{ url: 'http://h/ari', apps: ['a', ''] }, 'options.apps[1]'],
    [{ url: 'http://h/ari', apps: ['a,b'] }, 'options.apps[0]'],
    [{ url: 'http://h/ari', apps: ['a'], username: 'u' }, 'options.username and options.password'],
    [{ url: 'http://h/ari', apps: ['a'], username: 'u:x', password: 'p' }, 'options.username'],
  ])('refuses %j with a CONFIG error naming %s', (target, field) => {
    let thrown: unknown;
    try {
      buildEventStreamRequest(target);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(RingflowError);
    expect((thrown as RingflowError).code).toBe(ErrorCode.CONFIG);
    expect((thrown as RingflowError).message).toContain(field);
  });
});
