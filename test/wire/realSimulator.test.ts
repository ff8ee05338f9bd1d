import { VirtualClock } from '@ringflow/client';
import { type Simulator, type WireServer, createSimulator, startWireServer } from '@ringflow/simulator';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, EventClient, users } from './wireClient.ts';

/** The wire transport in front of the real simulator core (not a fake), on a virtual clock. */
let sim: Simulator;
let wire: WireServer;
let events: string;

beforeAll(async () => {
  sim = createSimulator({
    clock: new VirtualClock(Date.UTC(2026, 10, 22, 3, 47, 11, 718)),
    endpoints: ['PJSIP/wire-peer'],
  });
  wire = await startWireServer(sim, { users, clock: sim.clock });
  events = `${wire.url.replace(/^http/, 'ws')}/events`;
});
afterAll(async () => {
  await wire.close();
  sim.close();
});

async function get(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const res = await request(`${wire.url}${path}`, {
    method: (init.method ?? 'GET') as 'GET',
    headers: { Authorization: DEMO, ...init.headers },
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    body: text ? (JSON.parse(text) as unknown) : undefined,
  };
}

describe('the simulator over the wire', () => {
  it('answers ping at /core and at /asterisk with its server identifier', async () => {
    for (const path of ['/core/ping', '/asterisk/ping']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({
        ping: 'pong',
        timestamp: '2026-11-22T03:47:11.718+0000',
        asterisk_id: sim.asteriskId,
      });
    }
  });

  it('answers routing refusals like the real server, with Allow headers on 405', async () => {
    expect(await get('/nonexistent')).toMatchObject({ status: 404, body: { message: 'Resource not found' } });
    expect(await get('/channels/')).toMatchObject({
      status: 404,
      body: { message: 'ARI URLs do not end with a slash. Try /ari/channels' },
    });
    const put = await get('/channels', { method: 'PUT' });
    expect(put).toMatchObject({ status: 405, body: { message: 'Invalid method' } });
    expect(put.headers.allow).toBe('OPTIONS,GET,POST');
    const options = await get('/channels', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe('OPTIONS,GET,POST');
  });

  it('registers the apps of an event socket, delivers their events as frames, and unregisters them on close', async () => {
    const client = await EventClient.open(`${events}?app=wire-app&api_key=demo:demo`);
    const apps = (await get('/applications')).body as { name: string }[];
    expect(apps.map((a) => a.name)).toContain('wire-app');
    const raised = await get('/events/user/WireEvent?application=wire-app', { method: 'POST' });
    expect(raised.status).toBe(204);
    let event = await client.next();
    while (event.type !== 'ChannelUserevent') event = await client.next();
    expect(event).toMatchObject({
      type: 'ChannelUserevent',
      eventname: 'WireEvent',
      application: 'wire-app',
      asterisk_id: sim.asteriskId,
    });
    await client.close();
    await expect
      .poll(async () => ((await get('/applications')).body as { name: string }[]).map((a) => a.name), {
        timeout: 5000,
      })
      .not.toContain('wire-app');
  });

  it('answers REST requests sent over the event socket', async () => {
    const client = await EventClient.open(`${events}?app=rest-app`, { Authorization: DEMO });
    client.send({
      type: 'RESTRequest',
      transaction_id: 't',
      request_id: 'r',
      method: 'GET',
      uri: 'asterisk/ping',
    });
    let reply = await client.next();
    while (reply.type !== 'RESTResponse') reply = await client.next();
    expect(reply).toMatchObject({
      status_code: 200,
      reason_phrase: 'OK',
      application: 'rest-app',
      asterisk_id: sim.asteriskId,
      timestamp: '2026-11-22T03:47:11.718+0000',
    });
    expect(JSON.parse(reply.message_body as string)).toMatchObject({ ping: 'pong' });
    await client.close();
  });

  it('refuses a handshake without app before reaching the core', async () => {
    const before = ((await get('/applications')).body as unknown[]).length;
    await expect(EventClient.open(`${events}?api_key=demo:demo`)).rejects.toThrow(/400/);
    expect(((await get('/applications')).body as unknown[]).length).toBe(before);
  });
});

describe('a call over the wire', () => {
  it('originates into an app, delivers its events in order, and hangs up with an empty 204', async () => {
    const clock = sim.clock as VirtualClock;
    const client = await EventClient.open(`${events}?app=call-app&api_key=demo:demo`);
    const originate = await request(
      `${wire.url}/channels?endpoint=PJSIP/wire-peer&app=call-app&channelId=wire-call-1`,
      { method: 'POST', headers: { Authorization: DEMO } },
    );
    expect(originate.statusCode).toBe(200);
    expect(await originate.body.json()).toMatchObject({ id: 'wire-call-1' });
    await clock.advance(5000);
    const types: string[] = [];
    let event = await client.next();
    while (event.type !== 'StasisStart') {
      types.push(event.type as string);
      event = await client.next();
    }
    expect(event).toMatchObject({ application: 'call-app', channel: { id: 'wire-call-1' } });
    const hangup = await request(`${wire.url}/channels/wire-call-1`, {
      method: 'DELETE',
      headers: { Authorization: DEMO },
    });
    expect(hangup.statusCode).toBe(204);
    expect(hangup.headers['content-length']).toBe('0');
    await hangup.body.dump();
    await clock.advance(1000);
    do event = await client.next();
    while (event.type !== 'ChannelDestroyed');
    expect(event).toMatchObject({ channel: { id: 'wire-call-1' }, asterisk_id: sim.asteriskId });
    await client.close();
  });
});
