import { VirtualClock } from '@ringflow/client';
import { type Simulator, type WireServer, createSimulator, startWireServer } from '@ringflow/simulator';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, EventClient, users } from './wireClient.ts';

/** The driver API of the simulator, over real sockets, on a virtual clock. */
let sim: Simulator;
let wire: WireServer;
let driverUrl: string;

beforeAll(async () => {
  sim = createSimulator({ clock: new VirtualClock(Date.UTC(2026, 10, 25, 6, 0, 0)) });
  wire = await startWireServer(sim, {
    users: [...users, { username: 'viewer', password: 'viewer', readOnly: true }],
    clock: sim.clock,
    driver: sim.driver,
  });
  driverUrl = wire.url.replace(/\/ari$/, '/ringflow/driver');
});
afterAll(async () => {
  await wire.close();
  sim.close();
});

async function driver(method: string, path: string, body?: unknown, authorization: string | null = DEMO) {
  const res = await request(`${driverUrl}${path}`, {
    method: method as 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(authorization !== null ? { Authorization: authorization } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

describe('the driver API (/ringflow/driver)', () => {
  it('places a call that reaches the application, presses keys on it, and hangs it up', async () => {
    // The application the shipped dialplan sends inbound calls to, as `ringflow run --app` would.
    const app = await EventClient.open(`${wire.url.replace(/^http/, 'ws')}/events?app=ringflow-demo`, {
      Authorization: DEMO,
    });
    const nextOf = async (type: string) => {
      for (;;) {
        const message = await app.next();
        if (message.type === type) return message;
      }
    };
    const placed = await driver('POST', '/calls', { to: '100', from: '5551234' });
    expect(placed.status).toBe(201);
    const id = String(placed.body?.id);
    expect(await nextOf('StasisStart')).toMatchObject({
      args: ['100'],
      channel: { id, caller: { number: '5551234' } },
    });

    expect((await driver('POST', `/calls/${id}/dtmf`, { digits: '1#' })).status).toBe(204);
    await (sim.clock as VirtualClock).advance(1000);
    expect(await nextOf('ChannelDtmfReceived')).toMatchObject({ digit: '1', channel: { id } });
    expect(await nextOf('ChannelDtmfReceived')).toMatchObject({ digit: '#', channel: { id } });

    expect((await driver('POST', `/calls/${id}/talk`)).status).toBe(204);
    expect((await driver('DELETE', `/calls/${id}/talk`)).status).toBe(204);
    expect((await driver('DELETE', `/calls/${id}`, { cause: 17 })).status).toBe(204);
    await (sim.clock as VirtualClock).advance(1000);
    expect(await nextOf('ChannelHangupRequest')).toMatchObject({ cause: 17, channel: { id } });
    expect(await nextOf('StasisEnd')).toMatchObject({ channel: { id } });
    await app.close();

    const gone = await driver('POST', `/calls/${id}/dtmf`, { digits: '1' });
    expect(gone.status).toBe(404);
    expect(String(gone.body?.message)).toMatch(/No live channel/);
  });

  it('refuses requests without credentials, and read-only accounts', async () => {
    expect((await driver('POST', '/calls', { to: '100' }, null)).status).toBe(401);
    const viewer = `Basic ${Buffer.from('viewer:viewer').toString('base64')}`;
    expect((await driver('POST', '/calls', { to: '100' }, viewer)).status).toBe(403);
  });

  it('says what is wrong with a bad request', async () => {
    const placed = await driver('POST', '/calls', { to: '100' });
    const id = String(placed.body?.id);
    const digits = await driver('POST', `/calls/${id}/dtmf`, { digits: 'x' });
    expect(digits).toMatchObject({ status: 400, body: { message: expect.stringMatching(/0-9, A-D/) } });
    const missing = await driver('POST', `/calls/${id}/dtmf`, {});
    expect(missing).toMatchObject({ status: 400, body: { message: expect.stringMatching(/'digits'/) } });
    const unknown = await driver('POST', '/nothing');
    expect(unknown).toMatchObject({
      status: 404,
      body: { message: expect.stringMatching(/No driver operation/) },
    });
    await driver('DELETE', `/calls/${id}`);
  });

  it('leaves ARI routes alone: the driver is not under /ari', async () => {
    const res = await request(`${wire.url}/ringflow/driver/calls`, {
      method: 'POST',
      headers: { Authorization: DEMO },
    });
    await res.body.text();
    expect(res.statusCode).toBe(404);
  });
});
