import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import { httpFailure } from '../httpFailure.ts';
import { isEvent, originateLocalPair } from '../originateLocalPair.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/**
 * Reference scenario 06: a recording that ends at maxDurationSeconds, the stored recording
 * (list, get, file, copy into a directory, delete), a recording channel refused by a bridge,
 * pause/mute/stop, cancel, and termination by a DTMF digit.
 */
export const recordingScenario: Scenario = {
  name: 'record with maxDuration, stored list/get/copy/delete, addChannel of a recording channel is 409',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const { a, b } = await originateLocalPair(s, log, 'a', 'b');
    // Music on the far half gives the recorded half something to hear.
    await s.rest.channel(b).startMoh();
    const bridge = s.id('br1');
    await s.rest.bridges.create({ type: 'mixing', bridgeId: bridge, name: 'oracle-bridge' });

    const t1 = s.id('t1');
    expect(
      await s.rest
        .channel(a)
        .record({ name: t1, format: 'wav', maxDurationSeconds: 2, ifExists: 'overwrite' }),
    ).toEqual({ name: t1, format: 'wav', state: 'queued', target_uri: `channel:${a}` });
    await s.nextEvent(log, 'recording t1 started', isEvent('RecordingStarted', t1));
    expect(await s.rest.recording(t1).getLive()).toMatchObject({ name: t1, state: 'recording' });
    expect(await httpFailure(s.rest.bridge(bridge).addChannel({ channel: a }))).toEqual({
      status: 409,
      message: `Channel ${a} currently recording`,
    });
    const exists = { status: 409, message: `Recording '${t1}' already exists and can not be overwritten` };
    expect(
      await httpFailure(s.rest.channel(a).record({ name: t1, format: 'wav', ifExists: 'fail' })),
    ).toEqual(exists);
    await s.nextEvent(log, 'recording t1 finished by maxDuration', isEvent('RecordingFinished', t1));
    expect(await httpFailure(s.rest.recording(t1).getLive())).toEqual({
      status: 404,
      message: 'Recording not found',
    });
    expect(
      await httpFailure(s.rest.channel(a).record({ name: t1, format: 'wav', ifExists: 'fail' })),
    ).toEqual(exists);

    const tx = s.id('tx');
    expect(await s.send('POST', `/channels/${a}/record`, { name: tx, format: 'nosuchformat' })).toMatchObject(
      {
        status: 422,
        message: 'specified format is unknown on this system',
      },
    );
    expect(
      await s.send('POST', `/channels/${a}/record`, { name: tx, format: 'wav', ifExists: 'bogus' }),
    ).toMatchObject({
      status: 400,
      message: 'ifExists invalid',
    });
    expect(
      await s.send('POST', `/channels/${a}/record`, { name: tx, format: 'wav', terminateOn: 'bogus' }),
    ).toMatchObject({ status: 400, message: 'terminateOn invalid' });
    expect(await s.send('POST', `/channels/${a}/record`, { format: 'wav' })).toMatchObject({
      status: 500,
      message: 'Error parsing request',
    });

    // Stored recordings.
    expect(await s.rest.recordings.listStored()).toContainEqual({ name: t1, format: 'wav' });
    expect(await s.rest.recording(t1).getStored()).toEqual({ name: t1, format: 'wav' });
    const file = await s.rest.recording(t1).getStoredFile();
    expect(Buffer.from(file.subarray(0, 4)).toString('latin1')).toBe('RIFF');
    const copy = `sub/${s.id('t2')}`;
    expect(await s.rest.recording(t1).copyStored({ destinationRecordingName: copy })).toEqual({
      name: copy,
      format: 'wav',
    });
    expect(await httpFailure(s.rest.recording(t1).copyStored({ destinationRecordingName: copy }))).toEqual({
      status: 409,
      message: 'A recording with the same name already exists on the system',
    });
    const notFound = { status: 404, message: 'Recording not found' };
    expect(
      await httpFailure(
        s.rest.recording(s.id('no-such')).copyStored({ destinationRecordingName: s.id('x') }),
      ),
    ).toEqual(notFound);
    expect(await s.send('POST', `/recordings/stored/${t1}/copy`)).toMatchObject({
      status: 400,
      message: 'Invalid destination recording name',
    });
    expect(await s.rest.recording(copy).getStored()).toEqual({ name: copy, format: 'wav' });
    // The directory separator must be encoded: a raw slash is another path.
    expect(await s.send('GET', `/recordings/stored/${copy}`)).toMatchObject({
      status: 404,
      message: 'Resource not found',
    });
    await s.rest.recording(copy).deleteStored();
    expect(await httpFailure(s.rest.recording(copy).deleteStored())).toEqual(notFound);
    expect(await httpFailure(s.rest.recording(s.id('no-such')).getStoredFile())).toEqual(notFound);

    // Pause, mute and stop a live recording: stopped, it is stored.
    const t3 = s.id('t3');
    await s.rest
      .channel(a)
      .record({ name: t3, format: 'wav', maxDurationSeconds: 10, ifExists: 'overwrite' });
    await s.nextEvent(log, 'recording t3 started', isEvent('RecordingStarted', t3));
    await s.rest.recording(t3).pause();
    await s.rest.recording(t3).pause();
    expect(await s.rest.recording(t3).getLive()).toMatchObject({ state: 'paused' });
    await s.rest.recording(t3).unpause();
    await s.rest.recording(t3).mute();
    await s.rest.recording(t3).unmute();
    await s.rest.recording(t3).stop();
    await s.nextEvent(log, 'recording t3 finished', isEvent('RecordingFinished', t3));
    expect(await httpFailure(s.rest.recording(t3).stop())).toEqual(notFound);
    expect(await s.rest.recording(t3).getStored()).toEqual({ name: t3, format: 'wav' });

    // Cancelled, it is not stored.
    const t4 = s.id('t4');
    await s.rest
      .channel(a)
      .record({ name: t4, format: 'wav', maxDurationSeconds: 10, ifExists: 'overwrite' });
    await s.nextEvent(log, 'recording t4 started', isEvent('RecordingStarted', t4));
    await s.rest.recording(t4).cancel();
    await s.nextEvent(log, 'recording t4 finished', isEvent('RecordingFinished', t4));
    expect(await httpFailure(s.rest.recording(t4).getStored())).toEqual(notFound);

    // A digit from the other half ends a recording that terminates on '#'.
    const t5 = s.id('t5');
    await s.rest.channel(a).record({
      name: t5,
      format: 'wav',
      maxDurationSeconds: 10,
      terminateOn: '#',
      ifExists: 'overwrite',
    });
    await s.nextEvent(log, 'recording t5 started', isEvent('RecordingStarted', t5));
    await s.rest.channel(b).sendDTMF({ dtmf: '#' });
    await s.nextEvent(log, 'recording t5 finished by #', isEvent('RecordingFinished', t5));
    await s.rest.channel(b).stopMoh();

    const recordings = log.events.filter((e) => e.type.startsWith('Recording')).map(describeEvent);
    expect(recordings).toEqual(
      [t1, t3, t4, t5].flatMap((name) => [
        `RecordingStarted ${name} recording`,
        `RecordingFinished ${name} done`,
      ]),
    );
    const stored = (await s.rest.recordings.listStored()).map((r) => r.name);
    expect(stored).toEqual(expect.arrayContaining([t1, t3, t5]));
    expect(stored).not.toContain(t4);
    for (const name of [t1, t3, t5]) await s.rest.recording(name).deleteStored();
  },
};
