import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findOperation } from '../description/index.ts';
import type { ResourceName } from '../description/spec.ts';
import { encodeQueryString } from './encodeQueryString.ts';
import { encodePathSegment, encodeRequest, formatQueryValue } from './encodeRequest.ts';

function op(resource: ResourceName, name: string) {
  const found = findOperation(resource, name);
  if (!found) throw new Error(`no operation ${resource}.${name}`);
  return found;
}

describe('encodePathSegment', () => {
  it('encodes a directory slash but keeps device-name colons, as the real client sent them', () => {
    expect(encodePathSegment('sub/t2')).toBe('sub%2Ft2');
    expect(encodePathSegment('Stasis:oracle-dev')).toBe('Stasis:oracle-dev');
    expect(encodePathSegment('alice@example.com')).toBe('alice@example.com');
    expect(encodePathSegment('a b?c#d%e')).toBe('a%20b%3Fc%23d%25e');
  });

  it('always yields one segment that decodes back to the value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        const encoded = encodePathSegment(value);
        expect(encoded).not.toMatch(/[/?#\s]/);
        expect(decodeURIComponent(encoded)).toBe(value);
      }),
    );
  });
});

describe('query values', () => {
  it('writes booleans, numbers and lists the way the server parses them', () => {
    expect(formatQueryValue(true)).toBe('true');
    expect(formatQueryValue(false)).toBe('false');
    expect(formatQueryValue(30)).toBe('30');
    expect(formatQueryValue(['channel:a', 'channel:b'])).toBe('channel:a,channel:b');
  });

  it('percent-encodes like encodeURIComponent', () => {
    expect(
      encodeQueryString([
        ['callerId', 'Oracle <1000>'],
        ['source', 'channel:a,channel:b'],
        ['endpoint', 'Local/s@ctx'],
        ['variable', 'CALLERID(num)'],
      ]),
    ).toBe(
      'callerId=Oracle%20%3C1000%3E&source=channel%3Aa%2Cchannel%3Ab&endpoint=Local%2Fs%40ctx&variable=CALLERID(num)',
    );
    expect(encodeQueryString([])).toBe('');
  });
});

describe('encodeRequest', () => {
  it('fills the path, keeps the caller order of query parameters and puts containers in the body', () => {
    const request = encodeRequest(
      op('channels', 'originateWithId'),
      { endpoint: 'Local/s@ctx', channelId: 'c 1', variables: { A: '1' }, app: 'demo', timeout: 30 },
      'asterisk',
    );
    expect(request).toEqual({
      method: 'POST',
      path: '/channels/c%201',
      query: [
        ['endpoint', 'Local/s@ctx'],
        ['app', 'demo'],
        ['timeout', '30'],
      ],
      body: { variables: { A: '1' } },
    });
  });

  it('sends an object parameter as the whole body', () => {
    const filter = { allowed: [{ type: 'StasisStart' }] };
    expect(
      encodeRequest(op('applications', 'filter'), { applicationName: 'app', filter }, 'asterisk').body,
    ).toBe(filter);
  });

  it('leaves out absent values and sends no body when no body parameter is given', () => {
    const request = encodeRequest(
      op('events', 'userEvent'),
      { eventName: 'E', application: 'app', source: [], variables: undefined },
      'asterisk',
    );
    expect(request).toEqual({ method: 'POST', path: '/events/user/E', query: [['application', 'app']] });
    expect('body' in request).toBe(false);
  });

  it('switches the server-level segment to core and leaves other resources alone', () => {
    expect(encodeRequest(op('asterisk', 'ping'), {}, 'core').path).toBe('/core/ping');
    expect(
      encodeRequest(op('asterisk', 'getObject'), { configClass: 'c', objectType: 't', id: 'i' }, 'core').path,
    ).toBe('/core/config/dynamic/c/t/i');
    expect(encodeRequest(op('channels', 'list'), {}, 'core').path).toBe('/channels');
  });
});
