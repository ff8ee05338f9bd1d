import { findOperation } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { readParams } from './readParams.ts';

const op = (resource: Parameters<typeof findOperation>[0], name: string) => findOperation(resource, name)!;

describe('readParams', () => {
  it('types query text by the description and applies defaults', () => {
    const read = readParams(
      op('channels', 'record'),
      { channelId: 'c1' },
      {
        method: 'POST',
        path: '/channels/c1/record',
        query: { name: 'm', format: 'wav', maxDurationSeconds: '5', beep: 'true' },
      },
    );
    expect(read).toEqual({
      params: {
        channelId: 'c1',
        name: 'm',
        format: 'wav',
        maxDurationSeconds: 5,
        maxSilenceSeconds: 0,
        ifExists: 'fail',
        beep: true,
        terminateOn: 'none',
      },
    });
  });

  it('accepts query parameters as JSON body keys, as the real server does', () => {
    const read = readParams(
      op('channels', 'originate'),
      {},
      {
        method: 'POST',
        path: '/channels',
        query: {},
        body: { endpoint: 'Local/s@ivr', app: 'demo', timeout: 10, variables: { A: '1' } },
      },
    );
    expect(read).toMatchObject({
      params: { endpoint: 'Local/s@ivr', app: 'demo', timeout: 10, variables: { A: '1' } },
    });
  });

  it('refuses with the real server’s message where it has one, else names the parameter', () => {
    const mute = readParams(
      op('channels', 'mute'),
      { channelId: 'c1' },
      {
        method: 'POST',
        path: '/channels/c1/mute',
        query: { direction: 'sideways' },
      },
    );
    expect(mute).toEqual({ refusal: [400, 'Invalid direction specified'] });
    const control = readParams(
      op('playbacks', 'control'),
      { playbackId: 'p' },
      {
        method: 'POST',
        path: '/playbacks/p/control',
        query: { operation: 'bogus' },
      },
    );
    expect(control).toEqual({ refusal: [400, 'Invalid operation bogus'] });
    const record = readParams(
      op('channels', 'record'),
      { channelId: 'c1' },
      {
        method: 'POST',
        path: '/channels/c1/record',
        query: { name: 'x' },
      },
    );
    expect(record).toEqual({
      refusal: [
        400,
        "Parameter 'format' is required by POST /channels/{channelId}/record; add it to the query",
      ],
    });
  });

  it('checks the snoop directions before anything else, and externalMedia app with the server message', () => {
    const snoop = (query: Record<string, string>) =>
      readParams(
        op('channels', 'snoopChannel'),
        { channelId: 'c1' },
        { method: 'POST', path: '/channels/c1/snoop', query },
      );
    expect(snoop({})).toEqual({ refusal: [400, 'Direction must be specified for at least spy or whisper'] });
    expect(snoop({ spy: 'in' })).toEqual({ refusal: [400, 'Application name is required'] });
    expect(snoop({ whisper: 'out', app: 'a' })).toMatchObject({
      params: { spy: 'none', whisper: 'out', app: 'a' },
    });
    const media = readParams(
      op('channels', 'externalMedia'),
      {},
      { method: 'POST', path: '/channels/externalMedia', query: { format: 'ulaw' } },
    );
    expect(media).toEqual({ refusal: [400, 'app cannot be empty'] });
  });

  it('treats an empty list value as missing (media= gives the play refusal)', () => {
    const read = readParams(
      op('channels', 'play'),
      { channelId: 'c1' },
      {
        method: 'POST',
        path: '/channels/c1/play',
        query: { media: '' },
      },
    );
    expect(read).toEqual({ refusal: [500, 'Failed to queue media for playback'] });
  });
});
