import type { DeviceState } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { createServerFacilities } from './createServerFacilities.ts';
import { defaultModules } from './defaultModules.ts';
import { expectSimError } from './expectSimError.ts';

describe('createServerFacilities', () => {
  it('links mailboxes, MWI device states and dynamic configuration', () => {
    const f = createServerFacilities({ users: [{ name: 'demo', password: 'demo' }] });
    const published: DeviceState[] = [];
    f.deviceStates.onChange((s) => published.push(s));
    f.dynamicConfig.update('res_mwi_external', 'mailboxes', '1000', {
      fields: [{ attribute: 'msgs_new', value: '2' }],
    });
    expect(f.mailboxes.get('1000')).toEqual({ name: '1000', old_messages: 0, new_messages: 2 });
    expect(published).toEqual([{ name: 'MWI:1000', state: 'INUSE' }]);
    expect(f.dynamicConfig.get('res_ari', 'user', 'demo')[1]).toEqual({
      attribute: 'password',
      value: 'demo',
    });
  });

  it('times recording: media from the recording store and resets log channels on a logger reload', () => {
    const f = createServerFacilities({ extraSounds: [{ id: 'custom/hi', durationMs: 750 }] });
    f.recordings.write('greeting', 'wav', 3200);
    expect(f.sounds.mediaTiming('recording:greeting')).toEqual({ kind: 'timed', durationMs: 3200 });
    expect(f.sounds.mediaTiming('sound:custom/hi')).toEqual({ kind: 'timed', durationMs: 750 });
    f.logChannels.add('extra', 'notice');
    f.modules.reload('logger');
    expect(f.logChannels.list()).toHaveLength(2);
  });

  it('takes its own module list, log channels and device state lookup', () => {
    const f = createServerFacilities({
      modules: defaultModules.filter((m) => m.name !== 'res_mwi_external.so'),
      logChannels: [{ name: 'full', levels: '*' }],
      deviceStateLookup: () => 'RINGING',
    });
    expectSimError(() => f.mailboxes.list(), 404, 'Resource not found');
    expect(f.logChannels.list().map((c) => c.channel)).toEqual(['/var/log/asterisk/full']);
    expect(f.deviceStates.get('Local/100@default').state).toBe('RINGING');
  });
});
