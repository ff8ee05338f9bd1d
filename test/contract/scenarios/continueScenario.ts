import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import { httpFailure } from '../httpFailure.ts';
import { isEvent, originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/**
 * Reference scenario 09: `default,100,menu` plays a beep and returns to demo-app with the
 * argument back-from-dialplan; `default,101,menu` ends in Hangup.
 */
export const continueScenario: Scenario = {
  name: 'continue at a dialplan label and return to Stasis with args; a label that ends hangs up',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a, b } = await originateLocalPair(s, log, 'c', 'd');
    const stasis = (id: string) =>
      log.events
        .filter(
          (e) => ['StasisStart', 'StasisEnd', 'ChannelDestroyed'].includes(e.type) && isEvent(e.type, id)(e),
        )
        .map(describeEvent);

    await s.rest.channel(a).continueInDialplan({ context: 'default', extension: '100', label: 'menu' });
    await s.until('back in Stasis', () => stasis(a).length === 3);
    expect(stasis(a)).toEqual([
      `StasisStart ${a} [alpha,beta]`,
      `StasisEnd ${a}`,
      `StasisStart ${a} [back-from-dialplan]`,
    ]);
    expect(await s.rest.channel(a).get()).toMatchObject({
      state: 'Up',
      dialplan: { context: 'default', exten: '100' },
    });
    expect(
      await httpFailure(
        s.rest.channel(a).continueInDialplan({ context: 'default', extension: '100', label: 'nolabel' }),
      ),
    ).toEqual({ status: 404, message: 'Requested label can not be found' });
    expect(
      await httpFailure(
        s.rest
          .channel(s.id('no-such-channel'))
          .continueInDialplan({ context: 'default', extension: '101', label: 'menu' }),
      ),
    ).toEqual({ status: 404, message: 'Channel not found' });

    // While the channel runs the dialplan it is not the application's.
    await s.rest.channel(a).continueInDialplan({ context: 'default', extension: '100', label: 'menu' });
    await s.until('left Stasis', () => stasis(a).length === 4);
    expect(
      await httpFailure(
        s.rest.channel(a).continueInDialplan({ context: 'default', extension: '100', label: 'menu' }),
      ),
    ).toEqual({ status: 409, message: 'Channel not in Stasis application' });
    expect(await httpFailure(s.rest.channel(a).play({ media: 'sound:beep' }))).toEqual({
      status: 409,
      message: 'Channel not in Stasis application',
    });
    await s.until('back in Stasis again', () => stasis(a).length === 5);

    // 101,menu plays a beep and hangs up: the pair ends.
    await s.rest.channel(a).continueInDialplan({ context: 'default', extension: '101', label: 'menu' });
    await s.nextEvent(log, `${b} destroyed`, isEvent('ChannelDestroyed', b));
    expect(stasis(a)).toEqual([
      `StasisStart ${a} [alpha,beta]`,
      `StasisEnd ${a}`,
      `StasisStart ${a} [back-from-dialplan]`,
      `StasisEnd ${a}`,
      `StasisStart ${a} [back-from-dialplan]`,
      `StasisEnd ${a}`,
      `ChannelDestroyed ${a} cause=16`,
    ]);
    expect(await httpFailure(s.rest.channel(a).get())).toEqual({ status: 404, message: 'Channel not found' });
  },
};
