import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import { httpFailure } from '../httpFailure.ts';
import { isEvent, originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/** Reference scenario 10: a hangup reason becomes the cause of ChannelDestroyed; bad ones are 400. */
export const hangupReasonScenario: Scenario = {
  name: 'hangup reasons: busy is cause 17, a bad reason or reason with reason_code is 400',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a, b } = await originateLocalPair(s, log, 'a', 'b');
    expect(await s.send('DELETE', `/channels/${b}`, { reason: 'bogus' })).toMatchObject({
      status: 400,
      message: 'Invalid reason for hangup reason provided',
    });
    expect(await s.send('DELETE', `/channels/${b}`, { reason: 'busy', reason_code: '17' })).toMatchObject({
      status: 400,
      message: "The reason and reason_code can't both be specified",
    });
    await s.rest.channel(b).hangup({ reason: 'busy' });
    await s.nextEvent(log, `${a} destroyed`, isEvent('ChannelDestroyed', a));
    const ends = log.of('StasisEnd', 'ChannelDestroyed').map(describeEvent);
    expect(ends).toEqual(
      expect.arrayContaining([`StasisEnd ${b}`, `ChannelDestroyed ${b} cause=17`, `StasisEnd ${a}`]),
    );
    expect(await httpFailure(s.rest.channel(b).hangup())).toEqual({
      status: 404,
      message: 'Channel not found',
    });

    // A channel created (not dialled) enters the app at once; reason_code is a number cause.
    const e = s.id('e');
    const f = s.id('f');
    expect(
      await s.rest.channels.create({
        endpoint: 'Local/s@stasis-ivr',
        app: 'demo-app',
        appArgs: 'created',
        channelId: e,
        otherChannelId: f,
      }),
    ).toMatchObject({ id: e, state: 'Down' });
    expect(
      await httpFailure(
        s.rest.channels.create({ endpoint: 'Local/s@stasis-ivr', app: 'demo-app', channelId: e }),
      ),
    ).toEqual({ status: 409, message: 'Channel with given unique ID already exists' });
    await s.nextEvent(log, `StasisStart of ${e}`, isEvent('StasisStart', e));
    await s.rest.channel(e).dial({ timeout: 10 });
    await s.nextEvent(log, `StasisStart of ${f}`, isEvent('StasisStart', f));
    await s.rest.channel(f).answer();
    await s.nextEvent(log, `${e} up`, (ev) => describeEvent(ev) === `ChannelStateChange ${e} Up`);
    expect(await httpFailure(s.rest.channel(e).dial())).toEqual({
      status: 409,
      message: "Channel is not in the 'Down' state",
    });
    await s.send('DELETE', `/channels/${e}`, { reason_code: '21' });
    await s.nextEvent(log, `${e} destroyed`, isEvent('ChannelDestroyed', e));
    expect(log.of('ChannelDestroyed').map(describeEvent)).toContain(`ChannelDestroyed ${e} cause=21`);
  },
};
