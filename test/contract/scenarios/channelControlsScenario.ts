import { expect } from 'vitest';
import { originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/** Reference scenario 05: hold, mute, music on hold and silence, each started and stopped. */
export const channelControlsScenario: Scenario = {
  name: 'hold, mute, music on hold and silence start and stop; a bad mute direction is 400',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a } = await originateLocalPair(s, log, 'a', 'b');
    const channel = s.rest.channel(a);
    const before = log.events.length;

    await channel.hold();
    await channel.unhold();
    await channel.mute({ direction: 'both' });
    await channel.unmute({ direction: 'both' });
    expect(await s.send('POST', `/channels/${a}/mute`, { direction: 'sideways' })).toMatchObject({
      status: 400,
      message: 'Invalid direction specified',
    });
    await channel.startMoh({ mohClass: 'default' });
    await channel.stopMoh();
    // An unknown class is accepted: the server falls back to its default music.
    await channel.startMoh({ mohClass: 'no-such-class' });
    await channel.stopMoh();
    await channel.startSilence();
    await channel.stopSilence();
    await s.rest.asterisk.ping();

    // Holding from the application is not a hold from the far end: no ChannelHold is raised.
    expect(log.events.slice(before).map((e) => e.type)).not.toContain('ChannelHold');
    expect(await channel.get()).toMatchObject({ state: 'Up' });
  },
};
