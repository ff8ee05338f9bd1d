import { expect } from 'vitest';
import { httpFailure } from '../httpFailure.ts';
import { originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/** Reference scenarios 01 and 08: channel variables and functions, global variables. */
export const variablesScenario: Scenario = {
  name: 'variables: a missing channel variable is 404, a missing global one is 200 empty',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a } = await originateLocalPair(s, log, 'a', 'b');
    const channel = s.rest.channel(a);
    const notFound = { status: 404, message: 'Provided variable was not found' };

    await channel.setChannelVar({ variable: 'ORACLE_VAR', value: 'hello' });
    expect(await channel.getChannelVar({ variable: 'ORACLE_VAR' })).toEqual({ value: 'hello' });
    expect(await httpFailure(channel.getChannelVar({ variable: 'ORACLE_NOT_SET' }))).toEqual(notFound);
    expect(await s.send('GET', `/channels/${a}/variable`)).toMatchObject({
      status: 400,
      message: 'Variable name is required',
    });
    expect(await channel.getChannelVar({ variable: 'CALLERID(num)' })).toEqual({ value: '1000' });
    expect(await httpFailure(channel.getChannelVar({ variable: 'NOSUCHFUNC(x)' }))).toEqual({
      status: 500,
      message: 'Unable to read provided function',
    });
    // Setting without a value clears the variable.
    await channel.setChannelVar({ variable: 'ORACLE_EMPTY' });
    expect(await httpFailure(channel.getChannelVar({ variable: 'ORACLE_EMPTY' }))).toEqual(notFound);
    expect(
      await httpFailure(s.rest.channel(s.id('no-such-channel')).getChannelVar({ variable: 'X' })),
    ).toEqual({ status: 404, message: 'Provided channel was not found' });
    await s.until('ChannelVarset of ORACLE_VAR', () =>
      log.events.some(
        (e) => e.type === 'ChannelVarset' && (e as { variable?: string }).variable === 'ORACLE_VAR',
      ),
    );

    const global = s.id('ORACLE_G2');
    await s.rest.asterisk.setGlobalVar({ variable: global, value: 'set-by-ari' });
    expect(await s.rest.asterisk.getGlobalVar({ variable: global })).toEqual({ value: 'set-by-ari' });
    expect(await s.rest.asterisk.getGlobalVar({ variable: s.id('ORACLE_NEVER_SET') })).toEqual({ value: '' });
    expect(await s.send('GET', '/asterisk/variable')).toMatchObject({
      status: 400,
      message: 'Variable name is required',
    });
  },
};
