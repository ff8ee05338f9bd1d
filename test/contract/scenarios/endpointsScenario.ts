import { expect } from 'vitest';
import { httpFailure } from '../httpFailure.ts';
import type { Scenario } from '../Scenario.ts';

/** Reference scenario 18: Local channels have no listed endpoints; messages to unknown endpoints are 404. */
export const endpointsScenario: Scenario = {
  name: 'endpoints and sendMessage: unknown technologies and endpoints are 404, a missing to is 400',
  async run(s) {
    expect(Array.isArray(await s.rest.endpoints.list())).toBe(true);
    for (const tech of ['Local', 'Bogus']) {
      expect(await httpFailure(s.rest.endpoints.listByTech({ tech }))).toEqual({
        status: 404,
        message: `No Endpoints found - invalid tech ${tech}`,
      });
    }
    const notFound = { status: 404, message: 'Endpoint not found' };
    expect(await httpFailure(s.rest.endpoint('Local', s.id('oracle')).get())).toEqual(notFound);
    expect(await httpFailure(s.rest.endpoint('Bogus', 'x').get())).toEqual(notFound);
    for (const to of ['xmpp:foo@bar', 'nocolon']) {
      expect(await httpFailure(s.rest.endpoints.sendMessage({ to, from: 'oracle', body: 'hello' }))).toEqual(
        notFound,
      );
    }
    expect(
      await httpFailure(
        s.rest.endpoints.sendMessage({ to: 'nocolon', from: 'oracle', variables: { X: 'y' } }),
      ),
    ).toEqual(notFound);
    expect(await s.send('PUT', '/endpoints/sendMessage', { from: 'oracle' })).toMatchObject({
      status: 400,
      message: 'To must be specified',
    });
    expect(
      await httpFailure(
        s.rest.endpoint('Local', s.id('oracle')).sendMessageToEndpoint({ from: 'oracle', body: 'hi' }),
      ),
    ).toEqual(notFound);
  },
};
