import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import type { Scenario } from '../Scenario.ts';

/** Reference scenario 24: a second connection for an app takes it over; one socket may carry several apps. */
export const applicationReplacedScenario: Scenario = {
  name: 'ApplicationReplaced: a second connection takes the app over; one socket serves several apps',
  notPerCall:
    'it registers applications without calls: a per-call connection is opened for a call, and its name (app:<channel>) is never shared',
  async run(s) {
    const first = await s.listen('plain-app');
    const second = await s.listen('plain-app');
    await s.nextEvent(
      first,
      'ApplicationReplaced on the first connection',
      (e) => e.type === 'ApplicationReplaced',
    );
    expect(first.events[0]).toMatchObject({ type: 'ApplicationReplaced', application: 'plain-app' });

    await s.rest.events.userEvent({
      eventName: 'AfterReplace',
      application: 'plain-app',
      variables: { who: 'gets-this' },
    });
    await s.nextEvent(second, 'user event on the new connection', (e) => e.type === 'ChannelUserevent');
    expect(first.events.map(describeEvent)).toEqual(['ApplicationReplaced']);

    const multi = await s.listen(['multi-one', 'multi-two']);
    expect((await s.rest.applications.list()).map((a) => a.name)).toEqual(
      expect.arrayContaining(['plain-app', 'multi-one', 'multi-two']),
    );
    await s.rest.events.userEvent({ eventName: 'ToMultiTwo', application: 'multi-two' });
    const event = await s.nextEvent(multi, 'user event for multi-two', (e) => e.type === 'ChannelUserevent');
    expect(event).toMatchObject({ application: 'multi-two', eventname: 'ToMultiTwo' });
    expect(second.events.map(describeEvent)).toEqual(['ChannelUserevent AfterReplace']);
  },
};
