import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import { isEvent } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/**
 * Recorded on a real server (reference scenario 02): the ;2 half enters the app from the
 * dialplan while still ringing; the ;1 half enters with the originate's arguments once ;2 answers.
 */
export const originateLocalPairScenario: Scenario = {
  name: 'originate a Local pair with caller-assigned ids: duplicates 409, answer, StasisStart args',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const a = s.id('a');
    const b = s.id('b');
    const channel = await s.rest.channels.originate({
      endpoint: 'Local/s@stasis-ivr',
      app: 'demo-app',
      appArgs: 'alpha,beta',
      callerId: 'Oracle <1000>',
      channelId: a,
      otherChannelId: b,
      timeout: 30,
      variables: { ORACLE_ORIG: 'yes' },
    });
    expect(channel).toMatchObject({ id: a, state: 'Down', caller: { name: 'Oracle', number: '1000' } });
    expect(channel.name).toMatch(/^Local\/s@stasis-ivr-[0-9a-f]{8};1$/);

    const duplicate = 'Channel with given unique ID already exists';
    expect(
      await s.send('POST', '/channels', { endpoint: 'Local/s@stasis-ivr', app: 'demo-app', channelId: a }),
    ).toMatchObject({ status: 409, message: duplicate });
    expect(
      await s.send('POST', '/channels', {
        endpoint: 'Local/s@stasis-ivr',
        app: 'demo-app',
        channelId: s.id('zz'),
        otherChannelId: b,
      }),
    ).toMatchObject({ status: 409, message: duplicate });

    const startB = await s.nextEvent(log, `StasisStart of ${b}`, isEvent('StasisStart', b));
    expect(startB).toMatchObject({ args: [], channel: { id: b, state: 'Ring' } });
    expect(await s.rest.channel(b).get()).toMatchObject({ state: 'Ring' });
    expect(await s.rest.channel(a).get()).toMatchObject({ state: 'Down' });

    await s.rest.channel(b).ring();
    await s.nextEvent(log, `${a} ringing`, (e) => describeEvent(e) === `ChannelStateChange ${a} Ringing`);
    await s.rest.channel(b).ringStop();
    await s.rest.channel(b).progress();
    await s.rest.channel(b).answer();
    const startA = await s.nextEvent(log, `StasisStart of ${a}`, isEvent('StasisStart', a));
    expect(startA).toMatchObject({ args: ['alpha', 'beta'], channel: { id: a, state: 'Up' } });
    await s.rest.channel(a).answer(); // already up: still 204
    expect(await s.rest.channel(a).getChannelVar({ variable: 'ORACLE_ORIG' })).toEqual({ value: 'yes' });

    const lifecycle = [
      'ChannelCreated',
      'ChannelStateChange',
      'StasisStart',
      'StasisEnd',
      'ChannelDestroyed',
    ];
    const of = (id: string) =>
      log.events.filter((e) => lifecycle.includes(e.type) && isEvent(e.type, id)(e)).map(describeEvent);
    expect(of(a)).toEqual([
      `ChannelCreated ${a}`,
      `ChannelStateChange ${a} Ringing`,
      `ChannelStateChange ${a} Up`,
      `StasisStart ${a} [alpha,beta]`,
    ]);
    expect(of(b)).toEqual([`ChannelCreated ${b}`, `StasisStart ${b} []`, `ChannelStateChange ${b} Up`]);
    // The refused duplicate of the pair's ;2 id created and destroyed its own ;1 half.
    expect(of(s.id('zz'))).toEqual([
      `ChannelCreated ${s.id('zz')}`,
      `ChannelDestroyed ${s.id('zz')} cause=0`,
    ]);

    await s.rest.channel(a).hangup({ reason: 'normal' });
    await s.nextEvent(log, `${b} destroyed`, isEvent('ChannelDestroyed', b));
    await s.nextEvent(log, `${a} destroyed`, isEvent('ChannelDestroyed', a));
    expect(of(a).slice(4)).toEqual([`StasisEnd ${a}`, `ChannelDestroyed ${a} cause=16`]);
  },
};
