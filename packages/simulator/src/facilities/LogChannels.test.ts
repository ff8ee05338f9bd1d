import { describe, expect, it } from 'vitest';
import { expectSimError } from './expectSimError.ts';
import { LogChannels } from './LogChannels.ts';
import { ModuleRegistry } from './ModuleRegistry.ts';

const messages = {
  channel: '/var/log/asterisk/messages.log',
  type: 'File',
  status: 'Enabled',
  configuration: 'NOTICE WARNING ERROR VERBOSE ',
};
const consoleChannel = {
  channel: '',
  type: 'Console',
  status: 'Enabled',
  configuration: 'NOTICE WARNING ERROR VERBOSE ',
};

describe('LogChannels', () => {
  it('starts with the traced default channels', () => {
    expect(new LogChannels().list()).toEqual([messages, consoleChannel]);
  });

  it('adds a channel on top, with levels in server order and a trailing space', () => {
    const logs = new LogChannels();
    logs.add('oracle-log', 'warning,notice');
    expect(logs.list()).toEqual([
      {
        channel: '/var/log/asterisk/oracle-log',
        type: 'File',
        status: 'Enabled',
        configuration: 'NOTICE WARNING ',
      },
      messages,
      consoleChannel,
    ]);
  });

  it('refuses a duplicate (409) and a missing configuration (400), checking levels first', () => {
    const logs = new LogChannels();
    logs.add('oracle-log', 'notice,warning');
    expectSimError(() => logs.add('oracle-log', 'notice'), 409, 'Log channel already exists');
    expectSimError(
      () => logs.add('/var/log/asterisk/oracle-log', 'notice'),
      409,
      'Log channel already exists',
    );
    expectSimError(() => logs.add('messages.log', 'error'), 409, 'Log channel already exists');
    expectSimError(() => logs.add('oracle-log2', undefined), 400, 'Configuration levels are required');
    expectSimError(() => logs.add('oracle-log', ''), 400, 'Configuration levels are required');
  });

  it('cannot open a file below a subdirectory of the log directory: 500 Allocation failed, nothing added', () => {
    const logs = new LogChannels();
    expectSimError(() => logs.add('Local/x@y', 'notice'), 500, 'Allocation failed');
    expect(logs.list()).toEqual([messages, consoleChannel]);
  });

  it('accepts unknown levels and shows no configuration for them', () => {
    const logs = new LogChannels();
    logs.add('oracle-log4', 'bogus_level');
    expect(logs.list()[0]?.configuration).toBe('');
  });

  it('understands *, verbose(n), spaces and a [format] prefix', () => {
    const logs = new LogChannels();
    logs.add('all', '*');
    logs.add('json', '[json] debug , verbose(3),dtmf');
    expect(logs.list().slice(0, 2)).toMatchObject([
      { channel: '/var/log/asterisk/json', configuration: 'DEBUG VERBOSE DTMF ' },
      {
        channel: '/var/log/asterisk/all',
        configuration: 'DEBUG TRACE NOTICE WARNING ERROR VERBOSE DTMF FAX SECURITY ',
      },
    ]);
  });

  it('deletes only channels added through the interface', () => {
    const logs = new LogChannels();
    logs.add('oracle-log', 'notice');
    logs.delete('oracle-log');
    expectSimError(() => logs.delete('oracle-log'), 404, 'Log channel does not exist');
    expectSimError(() => logs.delete('messages.log'), 404, 'Log channel does not exist');
    expectSimError(() => logs.delete('console'), 404, 'Log channel does not exist');
    expect(logs.list()).toEqual([messages, consoleChannel]);
  });

  it('rotating reloads the logger and drops interface-added channels (traced)', () => {
    const logs = new LogChannels();
    logs.add('oracle-log3', 'error');
    logs.rotate('oracle-log3');
    expect(logs.list()).toEqual([messages, consoleChannel]);
    expectSimError(() => logs.delete('oracle-log3'), 404, 'Log channel does not exist');
    logs.rotate('messages.log');
    logs.rotate('/var/log/asterisk/messages.log');
  });

  it('404s the rotation of an unknown or non-file channel, and still reloads', () => {
    const logs = new LogChannels();
    logs.add('kept-until-reload', 'notice');
    expectSimError(() => logs.rotate('no-such-log'), 404, 'Log channel does not exist');
    expect(logs.list()).toEqual([messages, consoleChannel]);
    expectSimError(() => logs.rotate('console'), 404, 'Log channel does not exist');
  });

  it('models console and syslog channels as the server names them', () => {
    const logs = new LogChannels({
      channels: [
        { name: 'syslog.local0', levels: 'error' },
        { name: '/tmp/full', levels: 'debug' },
      ],
      logDirectory: '/srv/logs/',
    });
    logs.add('app.log', 'notice');
    expect(logs.list()).toEqual([
      { channel: '/srv/logs/app.log', type: 'File', status: 'Enabled', configuration: 'NOTICE ' },
      { channel: 'syslog.local0', type: 'Syslog', status: 'Enabled', configuration: 'ERROR ' },
      { channel: '/tmp/full', type: 'File', status: 'Enabled', configuration: 'DEBUG ' },
    ]);
  });

  it('reloads when the logger module is reloaded', () => {
    const modules = new ModuleRegistry();
    const logs = new LogChannels({ modules });
    logs.add('temporary', 'notice');
    modules.reload('res_musiconhold');
    expect(logs.list()).toHaveLength(3);
    modules.reload('logger');
    expect(logs.list()).toEqual([messages, consoleChannel]);
  });
});
