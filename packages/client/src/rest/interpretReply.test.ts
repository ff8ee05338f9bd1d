import { describe, expect, it } from 'vitest';
import { findOperation } from '../description/index.ts';
import type { ResourceName } from '../description/spec.ts';
import { HttpError } from '../errors/HttpError.ts';
import { decodeHttpReply } from './decodeHttpReply.ts';
import { interpretReply } from './interpretReply.ts';
import { notFoundMeansGone } from './notFoundMeansGone.ts';
import { segmentFromResourceListing } from './segmentFromResourceListing.ts';

function op(resource: ResourceName, name: string) {
  const found = findOperation(resource, name);
  if (!found) throw new Error(`no operation ${resource}.${name}`);
  return found;
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('decodeHttpReply', () => {
  it('parses JSON, keeps text as text, bytes as bytes and an empty body as nothing', () => {
    expect(
      decodeHttpReply(200, { 'content-type': 'application/json; charset=utf-8' }, bytes('{"a":1}')).body,
    ).toEqual({
      a: 1,
    });
    expect(decodeHttpReply(404, { 'content-type': 'text/html' }, bytes('<h1>x</h1>')).body).toBe(
      '<h1>x</h1>',
    );
    const wav = decodeHttpReply(200, { 'content-type': 'audio/wav' }, bytes('RIFF'));
    expect(wav.binary).toEqual(bytes('RIFF'));
    expect(decodeHttpReply(204, {}, new Uint8Array(0))).toEqual({ status: 204, headers: {} });
  });

  it('keeps an unparsable error body as text but refuses an unparsable success', () => {
    expect(decodeHttpReply(500, { 'content-type': 'application/json' }, bytes('oops')).body).toBe('oops');
    expect(() => decodeHttpReply(200, { 'content-type': 'application/json' }, bytes('oops'))).toThrow(
      expect.objectContaining({ code: 'PROTOCOL' }),
    );
  });
});

describe('interpretReply', () => {
  const req = { method: 'GET' as const, path: '/x', query: [] };

  it('returns undefined for void operations and bytes for binary ones', () => {
    expect(interpretReply(op('channels', 'answer'), req, { status: 204, headers: {} })).toBeUndefined();
    expect(interpretReply(op('recordings', 'getStoredFile'), req, { status: 200, headers: {} })).toEqual(
      new Uint8Array(0),
    );
  });

  it('builds an HttpError from a {"message"} body, scrubbing credentials', () => {
    let error: unknown;
    try {
      interpretReply(op('channels', 'get'), req, {
        status: 404,
        headers: {},
        body: { message: 'Channel not found (api_key=demo:demo)' },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 404,
      isResourceGone: true,
      serverMessage: 'Channel not found (api_key=***)',
    });
  });
});

describe('notFoundMeansGone', () => {
  it('is true for operations addressing a channel, bridge, playback or recording', () => {
    expect(notFoundMeansGone(op('channels', 'answer'), 'Channel not found')).toBe(true);
    expect(notFoundMeansGone(op('bridges', 'addChannel'), 'Bridge not found')).toBe(true);
    expect(notFoundMeansGone(op('playbacks', 'control'), 'Playback not found')).toBe(true);
    expect(notFoundMeansGone(op('recordings', 'stop'), 'Recording not found')).toBe(true);
  });

  it('is false for other resources, for creations, and for a missing variable or label', () => {
    expect(notFoundMeansGone(op('mailboxes', 'get'), 'Mailbox is does not exist')).toBe(false);
    expect(notFoundMeansGone(op('channels', 'originateWithId'), 'whatever')).toBe(false);
    expect(notFoundMeansGone(op('channels', 'getChannelVar'), 'Provided variable was not found')).toBe(false);
    expect(notFoundMeansGone(op('channels', 'continueInDialplan'), 'Requested label can not be found')).toBe(
      false,
    );
    expect(notFoundMeansGone(op('channels', 'continueInDialplan'), 'Channel not found')).toBe(true);
  });
});

describe('segmentFromResourceListing', () => {
  it('reads object and string api entries, and gives up on anything else', () => {
    expect(segmentFromResourceListing({ apis: [{ path: '/api-docs/core.{format}' }] })).toBe('core');
    expect(segmentFromResourceListing({ apis: ['/api-docs/asterisk.{format}'] })).toBe('asterisk');
    expect(segmentFromResourceListing({ apis: [{ path: '/api-docs/channels.{format}' }] })).toBeUndefined();
    expect(segmentFromResourceListing('<html>')).toBeUndefined();
  });
});
