import { expect } from 'vitest';
import type { Scenario } from '../Scenario.ts';

/** Reference scenario 20: how the server answers requests it cannot route or accept. */
export const errorBodiesScenario: Scenario = {
  name: 'error bodies: unknown resources 404, wrong method 405, trailing slash, bad originate parameters',
  async run(s) {
    const cases: [
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      path: string,
      query: Record<string, string>,
      status: number,
      message: string,
    ][] = [
      ['GET', `/channels/${s.id('no-such-channel')}`, {}, 404, 'Channel not found'],
      ['GET', `/bridges/${s.id('no-such-bridge')}`, {}, 404, 'Bridge not found'],
      ['GET', '/nonexistent', {}, 404, 'Resource not found'],
      ['GET', `/channels/${s.id('x')}/nonexistent`, {}, 404, 'Resource not found'],
      ['GET', '/channels/', {}, 404, 'ARI URLs do not end with a slash. Try /ari/channels'],
      ['PUT', '/channels', {}, 405, 'Invalid method'],
      ['POST', '/channels', {}, 400, 'Endpoint must be specified'],
      [
        'POST',
        '/channels',
        { endpoint: 'Local/s@stasis-ivr' },
        400,
        'Application or extension must be specified',
      ],
      ['POST', '/channels', { endpoint: 'no-slash', app: 'demo-app' }, 400, 'Invalid endpoint specified'],
      [
        'POST',
        '/channels',
        { endpoint: 'Local/s@stasis-ivr', app: 'demo-app', formats: 'nosuchcodec' },
        400,
        'Provided format (nosuchcodec) was not found',
      ],
      [
        'POST',
        '/channels',
        { endpoint: 'Local/s@stasis-ivr', app: 'demo-app', originator: s.id('no-such-channel') },
        400,
        'Provided originator channel was not found',
      ],
      ['GET', `/sounds/${s.id('no-such-sound')}`, {}, 404, 'Sound not found'],
      [
        'POST',
        `/events/claim`,
        { channelId: s.id('no-such-channel'), application: 'demo-app' },
        404,
        'Channel not found or not in broadcast state',
      ],
    ];
    for (const [method, path, query, status, message] of cases) {
      expect({ request: `${method} ${path}`, ...(await s.send(method, path, query)) }).toMatchObject({
        request: `${method} ${path}`,
        status,
        message,
      });
    }
    // The one error whose body is not {"message"}: an unknown channel technology.
    expect(await s.send('POST', '/channels', { endpoint: 'Bogus/thing', app: 'demo-app' })).toMatchObject({
      status: 500,
      body: { error: 'Allocation failed' },
    });
    expect(await s.rest.asterisk.ping()).toMatchObject({ ping: 'pong', asterisk_id: expect.any(String) });
  },
};
