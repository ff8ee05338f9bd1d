/**
 * The client against exchanges recorded from a real Asterisk: for each operation, the request the
 * client sends (method, path, raw query, JSON body, credentials) must be byte for byte what the
 * real client sent, and the recorded reply must come back as the typed result or HttpError.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../errors/HttpError.ts';
import { isResourceGone } from '../errors/isResourceGone.ts';
import { createRestClient } from './createRestClient.ts';
import { recordedExchange } from './fixtures/recordedExchanges.ts';
import type { RecordedExchange } from './fixtures/recordedExchanges.ts';
import { startReplayServer } from './fixtures/startReplayServer.ts';
import type { ReceivedRequest, ReplayServer } from './fixtures/startReplayServer.ts';
import type { RestClient } from './RestClient.ts';

let server: ReplayServer;
let client: RestClient;

function clientAs(auth: string | null): RestClient {
  const [username = '', password = ''] = (auth ?? 'basic demo:demo').replace(/^basic /, '').split(':');
  return createRestClient({ url: server.url, username, password, segment: 'asterisk' });
}

beforeEach(async () => {
  server = await startReplayServer();
  client = clientAs('basic demo:demo');
});

afterEach(async () => {
  await client.close();
  await server.close();
});

function expectSameRequest(got: ReceivedRequest | undefined, recorded: RecordedExchange): void {
  const want = recorded.request;
  expect(got, `the server received no request for seq ${recorded.seq}`).toBeDefined();
  expect({ method: got!.method, path: got!.path, rawQuery: got!.rawQuery }).toEqual({
    method: want.method,
    path: want.path,
    rawQuery: want.rawQuery,
  });
  if (want.body === null) {
    expect(got!.bodyText).toBe('');
  } else {
    expect(got!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got!.bodyText)).toEqual(want.body);
  }
  const credentials = want.auth?.replace(/^basic /, '') ?? '';
  expect(got!.headers.authorization).toBe(`Basic ${Buffer.from(credentials).toString('base64')}`);
}

/**
 * Answers the next request with the recorded reply of `seq`, runs `action` and checks that the
 * client sent exactly the recorded request. Resolves or rejects with the action's outcome.
 */
async function replay<T>(
  seq: number,
  action: (c: RestClient) => Promise<T>,
  c: RestClient = client,
): Promise<T> {
  const recorded = recordedExchange(seq);
  const before = server.received.length;
  server.enqueue(recorded.response);
  const outcome = await action(c).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  expect(server.received.length).toBe(before + 1);
  expectSameRequest(server.received[before], recorded);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** The HttpError an action fails with; fails the test if it does not. */
async function httpErrorOf(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

function recordedMessage(seq: number): string {
  const body = recordedExchange(seq).response.body as { message?: string; error?: string };
  return body.message ?? body.error ?? '';
}

describe('REST client against recorded real-server exchanges', () => {
  it('originates with appArgs, callerId, caller-chosen ids and variables in the JSON body', async () => {
    const channel = await replay(46, (c) =>
      c.channels.originate({
        endpoint: 'Local/s@stasis-ivr',
        app: 'demo-app',
        appArgs: 'alpha,beta',
        callerId: 'Oracle <1000>',
        channelId: 'oracle-a',
        otherChannelId: 'oracle-b',
        timeout: 30,
        variables: { ORACLE_ORIG: 'yes' },
      }),
    );
    expect(channel.id).toBe('oracle-a');
    expect(channel.language).toBe('en');
    expect(channel.caller).toEqual({ name: 'Oracle', number: '1000' });
  });

  it('maps a duplicate channel id to HttpError 409 with the server message', async () => {
    const error = await httpErrorOf(
      replay(47, (c) =>
        c.channels.originate({ endpoint: 'Local/s@stasis-ivr', app: 'demo-app', channelId: 'oracle-a' }),
      ),
    );
    expect(error).toMatchObject({
      code: 'HTTP_ERROR',
      status: 409,
      operation: 'channels.originate',
      method: 'POST',
      path: '/channels',
      serverMessage: recordedMessage(47),
      isNotFound: false,
      isResourceGone: false,
    });
    expect(error.message).toContain('Channel with given unique ID already exists');
  });

  it('keeps the rare {"error"} body of a 500 as the server message', async () => {
    const error = await httpErrorOf(
      replay(794, (c) => c.channels.originate({ endpoint: 'Bogus/thing', app: 'demo-app' })),
    );
    expect(error.status).toBe(500);
    expect(error.serverMessage).toBe('Allocation failed');
  });

  it('adds a channel to a bridge with a role, through the bridge handle', async () => {
    const bridge = client.bridge('oracle-br1');
    expect(bridge.bridgeId).toBe('oracle-br1');
    await expect(
      replay(251, () => bridge.addChannel({ channel: 'oracle-a', role: 'participant' })),
    ).resolves.toBe(undefined);
    await replay(317, (c) => c.bridge('oracle-hold').addChannel({ channel: 'oracle-b', role: 'announcer' }));
  });

  it('reports the 409 of adding a recording channel, which is not a gone resource', async () => {
    const error = await httpErrorOf(
      replay(196, (c) => c.bridge('oracle-br1').addChannel({ channel: 'oracle-a' })),
    );
    expect(error.status).toBe(409);
    expect(error.serverMessage).toBe('Channel oracle-a currently recording');
    expect(isResourceGone(error)).toBe(false);
  });

  it('raises user events with a comma joined source list and with variables', async () => {
    await replay(704, (c) =>
      c.events.userEvent({
        eventName: 'OracleEvent3',
        application: 'demo-app',
        source: ['channel:oracle-g', 'channel:oracle-h'],
      }),
    );
    await replay(702, (c) =>
      c.events.userEvent({
        eventName: 'OracleEvent2',
        application: 'demo-app',
        source: 'channel:oracle-g',
        variables: { k: 'v' },
      }),
    );
  });

  it('sends an event filter as the whole JSON body', async () => {
    const app = await replay(762, (c) =>
      c
        .application('plain-app')
        .filter({ filter: { allowed: [{ type: 'StasisStart' }, { type: 'StasisEnd' }] } }),
    );
    expect(app.events_allowed).toEqual([{ type: 'StasisStart' }, { type: 'StasisEnd' }]);
    await replay(765, (c) => c.applications.filter({ applicationName: 'plain-app', filter: {} }));
  });

  it('subscribes an application to an event source', async () => {
    const app = await replay(754, (c) =>
      c.application('plain-app').subscribe({ eventSource: 'bridge:oracle-br2' }),
    );
    expect(app.bridge_ids).toEqual(['oracle-br2']);
  });

  it('updates a dynamic config object with fields in the body, and reports the 403 of a read-only store', async () => {
    const tuples = await replay(655, (c) =>
      c.asterisk.updateObject({
        configClass: 'res_mwi_external',
        objectType: 'mailboxes',
        id: 'oracle-dyn',
        fields: [
          { attribute: 'msgs_new', value: '3' },
          { attribute: 'msgs_old', value: '4' },
        ],
      }),
    );
    expect(tuples).toEqual([
      { attribute: 'msgs_new', value: '3' },
      { attribute: 'msgs_old', value: '4' },
    ]);
    const error = await httpErrorOf(
      replay(667, (c) =>
        c.core.updateObject({
          configClass: 'res_ari',
          objectType: 'user',
          id: 'viewer',
          fields: [{ attribute: 'read_only', value: 'no' }],
        }),
      ),
    );
    expect(error).toMatchObject({ status: 403, serverMessage: recordedMessage(667) });
    expect(error.message).toContain('read_only');
  });

  it('copies a stored recording into a sub directory and reads it back with an encoded slash', async () => {
    const copy = await replay(212, (c) =>
      c.recording('t1').copyStored({ destinationRecordingName: 'sub/t2' }),
    );
    expect(copy).toEqual({ name: 'sub/t2', format: 'wav' });
    const again = await httpErrorOf(
      replay(213, (c) =>
        c.recordings.copyStored({ recordingName: 't1', destinationRecordingName: 'sub/t2' }),
      ),
    );
    expect(again.status).toBe(409);
    const stored = await replay(216, (c) => c.recording('sub/t2').getStored());
    expect(stored.name).toBe('sub/t2');
  });

  it('downloads a stored recording file as bytes', async () => {
    const file = await replay(211, (c) => c.recording('t1').getStoredFile());
    expect(file).toBeInstanceOf(Uint8Array);
    expect(file.byteLength).toBe(46124);
    expect(Buffer.from(file.subarray(0, 4)).toString('latin1')).toBe('RIFF');
  });

  it('hangs up with a reason, and recognises the 404 of a channel that is already gone', async () => {
    await expect(
      replay(499, (c) => c.channel('oracle-b').hangup({ reason: 'busy' })),
    ).resolves.toBeUndefined();
    const error = await httpErrorOf(replay(511, (c) => c.channel('oracle-b').hangup()));
    expect(error).toMatchObject({ status: 404, isNotFound: true, isResourceGone: true });
    expect(isResourceGone(error)).toBe(true);
  });

  it('tells a missing variable (404, channel alive) from a missing channel (404, gone)', async () => {
    const missingVariable = await httpErrorOf(
      replay(330, (c) => c.channel('oracle-a').getChannelVar({ variable: 'ORACLE_NOT_SET' })),
    );
    expect(missingVariable.isNotFound).toBe(true);
    expect(isResourceGone(missingVariable)).toBe(false);
    const missingChannel = await httpErrorOf(
      replay(343, (c) => c.channel('no-such-channel').getChannelVar({ variable: 'X' })),
    );
    expect(isResourceGone(missingChannel)).toBe(true);
  });

  it('sets a channel variable with a boolean flag as true/false', async () => {
    await replay(336, (c) =>
      c.channel('oracle-a').setChannelVar({ variable: 'ORACLE_QUIET', value: 'q', report_events: false }),
    );
  });

  it('keeps ":" in device names in the path and sends the state', async () => {
    const device = client.deviceState('Stasis:oracle-dev');
    await replay(586, () => device.update({ deviceState: 'BUSY' }));
    await expect(replay(587, () => device.get())).resolves.toEqual({
      name: 'Stasis:oracle-dev',
      state: 'BUSY',
    });
    await replay(594, (c) => c.deviceStates.get({ deviceName: 'Stasis:never-created' }));
  });

  it('plays media by URI, by comma list and controls the playback; a finished playback is gone', async () => {
    const playback = await replay(98, (c) =>
      c.channel('oracle-p1').play({ media: 'sound:beep', playbackId: 'pb-plain' }),
    );
    expect(playback.id).toBe('pb-plain');
    await replay(146, (c) =>
      c.channel('oracle-a').play({ media: ['number:42', 'sound:beep'], playbackId: 'pb-list2' }),
    );
    await replay(132, (c) => c.playback('pb-tone').control({ operation: 'pause' }));
    const gone = await httpErrorOf(replay(128, (c) => c.playback('pb-hello').get()));
    expect(isResourceGone(gone)).toBe(true);
  });

  it('sends DTMF with "#" and numbers, and records with a boolean and a "#" terminator', async () => {
    await replay(171, (c) =>
      c.channel('oracle-a').sendDTMF({ dtmf: '2#', between: 100, duration: 120, before: 0, after: 0 }),
    );
    const recording = await replay(220, (c) =>
      c.channel('oracle-a').record({
        name: 't3',
        format: 'wav',
        maxDurationSeconds: 10,
        beep: true,
        terminateOn: '#',
        ifExists: 'overwrite',
      }),
    );
    expect(recording).toMatchObject({ name: 't3', state: 'queued' });
  });

  it('updates a mailbox with integer counts and creates a log channel with a level list', async () => {
    await replay(600, (c) => c.mailbox('oracle-mbx').update({ oldMessages: 1, newMessages: 2 }));
    const log = client.logChannel('oracle-log');
    expect(log.logChannelName).toBe('oracle-log');
    await replay(636, () => log.addLog({ configuration: 'notice,warning' }));
  });

  it('sets a global variable and pings the server', async () => {
    await replay(21, (c) => c.asterisk.setGlobalVar({ variable: 'ORACLE_G2', value: 'set-by-ari' }));
    const pong = await replay(12, (c) => c.asterisk.ping());
    expect(pong.ping).toBe('pong');
  });

  it('detects the asterisk segment from the real resource listing, once', async () => {
    const auto = createRestClient({ url: server.url, username: 'demo', password: 'demo' });
    server.enqueue(recordedExchange(13).response, recordedExchange(10).response);
    const info = await auto.asterisk.getInfo({ only: ['build', 'system'] });
    expect(info.system?.entity_id).toBe('02:fc:00:00:00:01');
    expect(server.received).toHaveLength(2);
    expectSameRequest(server.received[0], recordedExchange(13));
    expectSameRequest(server.received[1], recordedExchange(10));
    // The answer is cached: the next server-level call goes straight to /asterisk.
    await replay(12, (c) => c.core.ping(), auto);
    expect(server.received).toHaveLength(3);
    await auto.close();
  });

  it('reports wrong credentials (401) and a read-only user (403) with advice', async () => {
    const wrong = clientAs('basic demo:wrong');
    const unauthorized = await httpErrorOf(replay(774, (c) => c.channels.list(), wrong));
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.message).toContain('check the username and password');
    expect(unauthorized.message).not.toContain('wrong');
    await wrong.close();
    const viewer = clientAs('basic viewer:viewer');
    const forbidden = await httpErrorOf(replay(780, (c) => c.bridges.create(), viewer));
    expect(forbidden).toMatchObject({ status: 403, serverMessage: 'Write access denied' });
    await viewer.close();
  });
});
