import { expect } from 'vitest';
import { isEvent, originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/** Reference scenario 11: a snoop channel enters the app; hung up, it lingers until its target goes. */
export const snoopScenario: Scenario = {
  name: 'snoop: a spy channel enters the app with args; bad spy 400; it lingers until its target ends',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a } = await originateLocalPair(s, log, 'a', 'b');
    const snoop = s.id('snoop');
    const channel = await s.rest.channel(a).snoopChannel({
      snoopId: snoop,
      spy: 'both',
      whisper: 'none',
      app: 'demo-app',
      appArgs: 'snooping',
    });
    expect(channel).toMatchObject({ id: snoop, state: 'Up' });
    expect(channel.name).toMatch(new RegExp(`^Snoop/${a}-[0-9a-f]{8}$`));
    const start = await s.nextEvent(log, 'snoop in Stasis', isEvent('StasisStart', snoop));
    expect(start).toMatchObject({ args: ['snooping'] });

    expect(await s.send('POST', `/channels/${a}/snoop`, { spy: 'bogus', app: 'demo-app' })).toMatchObject({
      status: 400,
      message: 'Invalid direction specified for spy',
    });
    expect(await s.send('POST', `/channels/${a}/snoop`, { spy: 'in' })).toMatchObject({
      status: 400,
      message: 'Application name is required',
    });

    await s.rest.channel(snoop).hangup();
    await s.nextEvent(log, 'snoop left Stasis', isEvent('StasisEnd', snoop));
    expect(await s.rest.channel(snoop).get()).toMatchObject({ id: snoop });
    await s.rest.channel(a).hangup();
    await s.nextEvent(log, 'snoop destroyed with its target', isEvent('ChannelDestroyed', snoop));
  },
};
