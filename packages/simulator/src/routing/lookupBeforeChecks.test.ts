import { VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../createSimulator.ts';

describe('a missing resource is answered before the parameters are checked', () => {
  const sim = createSimulator({ clock: new VirtualClock() });
  const post = (path: string, query: Record<string, string> = {}) =>
    sim.handle({ method: 'POST', path, query });

  it('404 for the channel, bridge, endpoint or recording of the path, whatever the parameters', async () => {
    expect(await post('/channels/gone/play')).toEqual({
      status: 404,
      body: { message: 'Channel not found' },
    });
    expect(await post('/channels/gone/record')).toEqual({
      status: 404,
      body: { message: 'Channel not found' },
    });
    expect(await post('/channels/gone/redirect')).toEqual({
      status: 404,
      body: { message: 'Channel not found' },
    });
    expect(await post('/bridges/gone/play')).toEqual({ status: 404, body: { message: 'Bridge not found' } });
    expect(await post('/bridges/gone/addChannel')).toEqual({
      status: 404,
      body: { message: 'Bridge not found' },
    });
    expect(await sim.handle({ method: 'PUT', path: '/endpoints/PJSIP/gone/sendMessage', query: {} })).toEqual(
      {
        status: 404,
        body: { message: 'Endpoint not found' },
      },
    );
    expect(await post('/recordings/stored/gone/copy')).toEqual({
      status: 404,
      body: { message: 'Recording not found' },
    });
  });

  it('the parameter refusal when the resource exists', async () => {
    await post('/bridges/b1', { type: 'mixing' });
    expect(await post('/bridges/b1/play')).toEqual({
      status: 500,
      body: { message: 'Failed to queue media for playback' },
    });
    expect(await post('/bridges/b1/addChannel')).toEqual({
      status: 400,
      body: { message: 'Missing parameter channel' },
    });
  });

  it('the parameter refusal first for the operations that check before they look up', async () => {
    expect(await sim.handle({ method: 'GET', path: '/channels/gone/variable', query: {} })).toEqual({
      status: 400,
      body: { message: 'Variable name is required' },
    });
    expect(await post('/playbacks/gone/control')).toEqual({
      status: 400,
      body: { message: 'Missing operation' },
    });
    expect(await post('/applications/gone/subscription')).toEqual({
      status: 400,
      body: { message: 'Missing parameter eventSource' },
    });
  });
});
