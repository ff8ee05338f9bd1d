import {
  HandshakeRejectedError,
  type StreamEvent,
  createEventStream,
  createRestClient,
  ofType,
  systemClock,
} from '@ringflow/client';
import { type Simulator, type WireServer, createSimulator, startWireServer } from '@ringflow/simulator';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from './wireClient.ts';

/** ringflow's own client (REST and event stream) against the simulator over the wire. */
let sim: Simulator;
let wire: WireServer;

beforeAll(async () => {
  sim = createSimulator({ clock: systemClock });
  wire = await startWireServer(sim, { users, clock: sim.clock });
});
afterAll(async () => {
  await wire.close();
  sim.close();
});

describe('the ringflow client against the wire simulator', () => {
  it('detects the server-level segment from the published resource listing and pings', async () => {
    const client = createRestClient({ url: wire.url, username: 'demo', password: 'demo' });
    try {
      // The simulator publishes the server resource as the specification names it.
      expect(await client.resolveSegment()).toBe('core');
      expect(await client.asterisk.ping()).toMatchObject({ ping: 'pong', asterisk_id: sim.asteriskId });
    } finally {
      await client.close();
    }
  });

  it('publishes the server resource as asterisk on request; clients of either name work unchanged', async () => {
    const asSim = createSimulator({ clock: systemClock, serverResource: 'asterisk' });
    const asWire = await startWireServer(asSim, { users, clock: asSim.clock });
    const client = createRestClient({ url: asWire.url, username: 'demo', password: 'demo' });
    const forCore = createRestClient({
      url: asWire.url,
      username: 'demo',
      password: 'demo',
      segment: 'core',
    });
    try {
      expect(await client.resolveSegment()).toBe('asterisk');
      expect(await client.asterisk.ping()).toMatchObject({ ping: 'pong' });
      // Both path forms are served whatever the description says.
      expect(await forCore.asterisk.ping()).toMatchObject({ ping: 'pong' });
      const auth = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };
      const doc = await fetch(`${asWire.url}/api-docs/asterisk.json`, { headers: auth });
      expect(((await doc.json()) as { apis: { path: string }[] }).apis.map((a) => a.path)).toContain(
        '/asterisk/ping',
      );
      expect((await fetch(`${asWire.url}/api-docs/core.json`, { headers: auth })).status).toBe(404);
      const coreDoc = await fetch(`${wire.url}/api-docs/core.json`, { headers: auth });
      expect(((await coreDoc.json()) as { apis: { path: string }[] }).apis.map((a) => a.path)).toContain(
        '/core/ping',
      );
    } finally {
      await client.close();
      await forCore.close();
      await asWire.close();
      asSim.close();
    }
  });

  it('receives over its event stream the user event it raised over REST', async () => {
    const client = createRestClient({ url: wire.url, username: 'demo', password: 'demo' });
    const stream = createEventStream({
      url: wire.url,
      apps: ['client-app'],
      username: 'demo',
      password: 'demo',
    });
    try {
      const received = firstValueFrom(stream.events$.pipe(ofType('ChannelUserevent')));
      await stream.whenOpen();
      await client.events.userEvent({
        eventName: 'FromClient',
        application: 'client-app',
        variables: { k: 'v' },
      });
      const event = (await received) as StreamEvent & {
        eventname?: string;
        userevent?: Record<string, string>;
      };
      expect(event).toMatchObject({
        type: 'ChannelUserevent',
        eventname: 'FromClient',
        application: 'client-app',
      });
      expect(event.userevent).toMatchObject({ k: 'v' });
    } finally {
      await stream.close();
      await client.close();
    }
  });

  it('reports a wrong password on the event stream as a refused handshake', async () => {
    const stream = createEventStream({
      url: wire.url,
      apps: ['client-app'],
      username: 'demo',
      password: 'wrong',
      stopOnRejection: true,
    });
    try {
      await expect(stream.whenOpen()).rejects.toBeInstanceOf(HandshakeRejectedError);
    } finally {
      await stream.close();
    }
  });
});
