import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import { httpFailure } from '../httpFailure.ts';
import { originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/** Reference scenario 04: digits sent on one Local half are received on the other. */
export const dtmfScenario: Scenario = {
  name: 'DTMF sent on one half of a Local pair arrives on the other',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a, b } = await originateLocalPair(s, log, 'a', 'b');
    const digits = () => log.of('ChannelDtmfReceived').map(describeEvent);

    await s.rest.channel(b).sendDTMF({ dtmf: '1' });
    await s.until('digit 1 on a', () => digits().length === 1);
    await s.rest.channel(a).sendDTMF({ dtmf: '2#', between: 100, duration: 120, before: 0, after: 0 });
    await s.until('digits 2# on b', () => digits().length === 3);
    expect(digits()).toEqual([
      `ChannelDtmfReceived ${a} 1`,
      `ChannelDtmfReceived ${b} 2`,
      `ChannelDtmfReceived ${b} #`,
    ]);

    expect(await s.send('POST', `/channels/${a}/dtmf`)).toMatchObject({
      status: 400,
      message: 'DTMF is required',
    });
    expect(await httpFailure(s.rest.channel(s.id('no-such-channel')).sendDTMF({ dtmf: '1' }))).toEqual({
      status: 404,
      message: 'Channel not found',
    });
  },
};
