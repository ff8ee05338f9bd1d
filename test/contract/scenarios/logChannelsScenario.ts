import { expect } from 'vitest';
import { httpFailure } from '../httpFailure.ts';
import type { Scenario } from '../Scenario.ts';

/** Reference scenario 15: log channels added at run time; a rotation reloads the logger and drops them. */
export const logChannelsScenario: Scenario = {
  name: 'log channels: create, refuse duplicates, delete, rotate (which drops dynamic channels)',
  async run(s) {
    const name = s.id('log');
    const channels = async () => (await s.rest.asterisk.listLogChannels()).map((c) => c.channel);
    expect(await channels()).toContain('/var/log/asterisk/messages.log');
    await s.rest.logChannel(name).addLog({ configuration: 'notice,warning' });
    expect(await httpFailure(s.rest.logChannel(name).addLog({ configuration: 'notice' }))).toEqual({
      status: 409,
      message: 'Log channel already exists',
    });
    expect(await s.send('POST', `/asterisk/logging/${s.id('log2')}`)).toMatchObject({
      status: 400,
      message: 'Configuration levels are required',
    });
    expect(await s.rest.asterisk.listLogChannels()).toContainEqual({
      channel: `/var/log/asterisk/${name}`,
      type: 'File',
      status: 'Enabled',
      configuration: 'NOTICE WARNING ',
    });
    await s.rest.logChannel(name).deleteLog();
    const missing = { status: 404, message: 'Log channel does not exist' };
    expect(await httpFailure(s.rest.logChannel(name).deleteLog())).toEqual(missing);

    const rotated = s.id('log3');
    await s.rest.logChannel(rotated).addLog({ configuration: 'error' });
    await s.rest.logChannel(rotated).rotateLog();
    expect(await channels()).not.toContain(`/var/log/asterisk/${rotated}`);
    expect(await httpFailure(s.rest.logChannel(rotated).deleteLog())).toEqual(missing);
    expect(await httpFailure(s.rest.logChannel(s.id('no-such-log')).rotateLog())).toEqual(missing);
    await s.rest.logChannel('messages.log').rotateLog();
  },
};
