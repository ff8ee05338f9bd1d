import { operations, VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../createSimulator.ts';
import { CHECKS_BEFORE_LOOKUP } from './lookupBeforeChecks.ts';

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

  it('for every operation on a channel, bridge, playback, recording or endpoint, with no or odd parameters', async () => {
    const fresh = createSimulator({ clock: new VirtualClock() });
    const answers: string[] = [];
    for (const op of operations) {
      if (op.upgrade || CHECKS_BEFORE_LOOKUP.has(`${op.resource}.${op.name}`)) continue;
      const names = op.params.filter((p) => p.in === 'path').map((p) => p.name);
      const looked = ['channelId', 'bridgeId', 'playbackId', 'recordingName', 'resource'];
      if (!names.some((n) => looked.includes(n))) continue;
      let path = op.path;
      for (const n of names) path = path.replace(`{${n}}`, n === 'tech' ? 'PJSIP' : 'gone');
      for (const odd of [false, true]) {
        const query: Record<string, string> = {};
        if (odd) for (const p of op.params) if (p.in === 'query') query[p.name] = 'bogus:x';
        const r = await fresh.handle({ method: op.method, path, query });
        answers.push(`${op.method} ${path}${odd ? ' (odd)' : ''} ${r.status}`);
      }
    }
    expect(answers.length).toBeGreaterThan(60);
    expect(answers.filter((a) => !a.endsWith(' 404'))).toEqual([]);
    fresh.close();
  });
});
