import { operations } from '@ringflow/client';
import { createSimulator, type Simulator } from '@ringflow/simulator';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWireServer, type WireServer } from '@ringflow/simulator';

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const WRITER = basic('writer', 'writer-pw');
const READER = basic('reader', 'reader-pw');

let sim: Simulator;
let wire: WireServer;
beforeAll(async () => {
  sim = createSimulator();
  wire = await startWireServer(sim, {
    users: [
      { username: 'writer', password: 'writer-pw' },
      { username: 'reader', password: 'reader-pw', readOnly: true },
    ],
  });
});
afterAll(async () => {
  await wire.close();
  sim.close();
});

/** The path of an operation with a placeholder value in every path parameter. */
function pathOf(op: { path: string }): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => `rf-${name}`);
}

async function send(method: string, path: string, authorization: string, body?: unknown) {
  const res = await request(`${wire.url}${path}`, {
    method: method as 'GET',
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

describe('the simulator is safe by default', () => {
  it('listens on the loopback interface only', async () => {
    expect(wire.host).toBe('127.0.0.1');
    expect(new URL(wire.url).hostname).toBe('127.0.0.1');
  });

  it(`refuses every write operation of the description to a read-only user with 403 (${operations.filter((o) => o.method !== 'GET').length} operations)`, async () => {
    const writes = operations.filter((op) => op.method !== 'GET');
    expect(writes.length).toBeGreaterThan(50);
    const channelsBefore = sim.channelCount;
    for (const op of writes) {
      const res = await send(
        op.method,
        pathOf(op),
        READER,
        op.method === 'GET' ? undefined : { variables: {} },
      );
      expect(res.status, `${op.method} ${op.path} (${op.resource}.${op.name})`).toBe(403);
      expect(JSON.parse(res.text), `${op.resource}.${op.name}`).toEqual({ message: expect.any(String) });
    }
    // Nothing was done on the reader's behalf.
    expect(sim.channelCount).toBe(channelsBefore);
    const devices = await send('GET', '/deviceStates', READER);
    expect(JSON.parse(devices.text)).toEqual([]);
  });

  it('lets the read-only user read, and the same write goes through for a read-write user', async () => {
    expect((await send('GET', '/asterisk/ping', READER)).status).toBe(200);
    expect((await send('GET', '/channels', READER)).status).toBe(200);
    const denied = await send('PUT', '/deviceStates/Stasis:rf?deviceState=BUSY', READER);
    expect(denied.status).toBe(403);
    const allowed = await send('PUT', '/deviceStates/Stasis:rf?deviceState=BUSY', WRITER);
    expect(allowed.status).toBe(204);
  });

  it('answers 401 to wrong or missing credentials on every operation, without a hint which part was wrong', async () => {
    for (const op of operations) {
      for (const authorization of [basic('writer', 'nope'), basic('nobody', 'writer-pw'), '']) {
        const res = await send(op.method, pathOf(op), authorization);
        expect(res.status, `${op.method} ${op.path}`).toBe(401);
        expect(res.text).toBe('{"message":"Authentication required"}');
      }
    }
  });
});
