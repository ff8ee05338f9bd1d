import { VirtualClock } from '@ringflow/client';
import { type Simulator, type WireServer, createSimulator, startWireServer } from '@ringflow/simulator';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, EventClient, users } from './wireClient.ts';

/** Phones' transfers through the driver API (/ringflow/driver), over real sockets, on a virtual clock. */
let sim: Simulator;
let wire: WireServer;
let driverUrl: string;

beforeAll(async () => {
  sim = createSimulator({
    clock: new VirtualClock(Date.UTC(2026, 10, 25, 6, 0, 0)),
    dialplan: { text: '[default]\nexten => 100,1,Wait(60)\n' },
  });
  wire = await startWireServer(sim, { users, clock: sim.clock, driver: sim.driver });
  driverUrl = wire.url.replace(/\/ari$/, '/ringflow/driver');
});
afterAll(async () => {
  await wire.close();
  sim.close();
});

async function send(url: string, method: string, body?: unknown) {
  const res = await request(url, {
    method: method as 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: DEMO },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

describe('transfers through the driver API', () => {
  it("a phone's blind transfer: 201 with the replacement, whose StasisStart carries replace_channel", async () => {
    const app = await EventClient.open(`${wire.url.replace(/^http/, 'ws')}/events?app=xfer`, {
      Authorization: DEMO,
    });
    const nextOf = async (type: string) => {
      for (;;) {
        const message = await app.next();
        if (message.type === type) return message;
      }
    };
    const agent = String((await send(`${driverUrl}/calls`, 'POST', { app: 'xfer', from: '201' })).body?.id);
    const customer = String(
      (await send(`${driverUrl}/calls`, 'POST', { app: 'xfer', from: '555' })).body?.id,
    );
    expect((await send(`${wire.url}/bridges/desk?type=mixing`, 'POST')).status).toBe(200);
    expect(
      (await send(`${wire.url}/bridges/desk/addChannel?channel=${agent},${customer}`, 'POST')).status,
    ).toBe(204);

    const refused = await send(`${driverUrl}/calls/${agent}/transfer`, 'POST', {});
    expect(refused).toEqual({ status: 400, body: { message: "field 'exten' (a string) is required" } });

    const done = await send(`${driverUrl}/calls/${agent}/transfer`, 'POST', {
      exten: '100',
      context: 'default',
    });
    expect(done.status).toBe(201);
    const replacement = String(done.body?.replacement);
    expect(await nextOf('BridgeBlindTransfer')).toMatchObject({ channel: { id: agent }, exten: '100' });
    expect(await nextOf('StasisStart')).toMatchObject({
      channel: { id: replacement },
      replace_channel: { id: agent },
    });
    await app.close();
  });
});
