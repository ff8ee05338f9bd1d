import {
  type AcceptedServerSocket,
  createEventStream,
  createRestClient,
  type StreamEvent,
  VirtualClock,
} from '@ringflow/client';
import { connectInProcess, createSimulator, startOutboundWebSockets } from '@ringflow/simulator';
import { afterEach, describe, expect, it } from 'vitest';

const DIALPLAN = `
[ow]
exten => persistent,1,NoOp()
 same => n,Stasis(ow-app,arg1)
 same => n,Hangup()
exten => percall,1,NoOp()
 same => n,Stasis(ow-call,arg1)
 same => n,Set(AFTER=\${STASISSTATUS})
 same => n,Wait(1)
 same => n,Hangup()
`;

const ACCOUNT = { username: 'appuser', password: 'apppass' };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An application that answers every call it is given, over the socket it arrived on. */
function answeringApplication(socket: AcceptedServerSocket, seen: StreamEvent[]) {
  const stream = createEventStream({
    url: 'http://simulator/ari',
    apps: ['ow-call'],
    transport: socket.transport,
    restOverSocket: true,
    pingIntervalMs: 0,
    lazy: true,
  });
  const rest = createRestClient({
    url: 'http://simulator/ari',
    username: '',
    password: '',
    segment: 'asterisk',
    transport: stream.restTransport!,
  });
  stream.events$.subscribe((event) => {
    seen.push(event);
    if (event.type === 'StasisStart') {
      const id = (event as { channel: { id: string } }).channel.id;
      void rest
        .channel(id)
        .answer()
        .then(() => rest.channel(id).hangup());
    }
  });
  stream.open();
  cleanups.push(() => stream.close());
}

function world() {
  const clock = new VirtualClock(Date.UTC(2026, 10, 24, 17, 18, 15));
  const sim = createSimulator({ clock, dialplan: { text: DIALPLAN } });
  cleanups.push(() => sim.close());
  return { clock, sim };
}

describe('the simulator dials an application in the same process (connectInProcess)', () => {
  it('per call, on a virtual clock: ApplicationRegistered app:<channel>, REST over the pipe, closed after StasisEnd', async () => {
    const { clock, sim } = world();
    const seen: StreamEvent[] = [];
    const sockets: AcceptedServerSocket[] = [];
    const listener = connectInProcess({ path: '/ari-call', accounts: [ACCOUNT] }, (socket) => {
      sockets.push(socket);
      answeringApplication(socket, seen);
    });
    const outbound = startOutboundWebSockets(sim, {
      clock,
      dial: listener.dial,
      connections: [
        { connectionType: 'per_call_config', uri: 'ws://in-process/ari-call', apps: ['ow-call'], ...ACCOUNT },
      ],
    });
    cleanups.push(() => outbound.close());

    const id = sim.driver.placeCall({ context: 'ow', to: 'percall' });
    await clock.advance(0);
    expect(sockets.map((s) => s.path)).toEqual(['/ari-call']);
    const name = seen[0] && (seen[0] as { application?: string }).application;
    expect(seen.map((e) => e.type).slice(0, 2)).toEqual(['ApplicationRegistered', 'StasisStart']);
    expect(name).toMatch(/^ow-call:PJSIP\/.+/);
    // Answered and hung up by the application, over the pipe, without time passing.
    expect(sim.hasChannel(id)).toBe(false);
    expect(seen.map((e) => e.type)).toContain('StasisEnd');
    expect(seen.every((e) => (e as { application?: string }).application === name)).toBe(true);
    expect(listener.openConnections).toBe(1);
    // The server closes the call's connection a while after StasisEnd (3.5 s by default).
    await clock.advance(3_499);
    expect(listener.openConnections).toBe(1);
    await clock.advance(1);
    expect(listener.openConnections).toBe(0);
    expect(sim.knownApplications()).not.toContain(name);
    expect(outbound.opened).toEqual({ persistent: 0, perCall: 1 });
    expect(listener.acceptedConnections).toBe(1);
  });

  it('nobody listening: the attempts fail, Stasis() fails and the call goes on in the dialplan', async () => {
    const { clock, sim } = world();
    const listener = connectInProcess({}, () => {
      throw new Error('no connection should be accepted');
    });
    await listener.close();
    const logged: string[] = [];
    const outbound = startOutboundWebSockets(sim, {
      clock,
      dial: listener.dial,
      log: (_level, message) => logged.push(message),
      connections: [
        {
          connectionType: 'per_call_config',
          uri: 'ws://in-process/ari-call',
          apps: ['ow-call'],
          reconnectAttempts: 2,
          reconnectIntervalMs: 500,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const variables: string[] = [];
    sim.driver.onEvent((event) => {
      if (event.type === 'ChannelVarset' && event.variable === 'AFTER') variables.push(String(event.value));
    });
    const id = sim.driver.placeCall({ context: 'ow', to: 'percall' });
    await clock.advance(499);
    expect(listener.refusedConnections).toBe(1);
    await clock.advance(1);
    expect(listener.refusedConnections).toBe(2);
    expect(variables).toEqual(['FAILED']);
    expect(sim.hasChannel(id)).toBe(true); // in Wait(1), after Stasis()
    expect(outbound.failedCalls).toBe(1);
    expect(logged.at(-1)).toBe(
      "Failed to create per call websocket thread; Stasis app 'ow-call' doesn't exist",
    );
    await clock.advance(1_000);
    expect(sim.hasChannel(id)).toBe(false);
  });

  it('wrong credentials or path are refused, as listenForServers refuses them (401, 404)', async () => {
    const { sim } = world();
    const listener = connectInProcess({ path: '/ari-call', accounts: [ACCOUNT] }, () => {});
    const dial = (uri: string, password: string) =>
      listener.dial(
        { connectionType: 'persistent', uri, apps: ['ow-app'], username: 'appuser', password },
        'ari',
      );
    await expect(dial('ws://in-process/ari-call', 'wrong')).rejects.toThrow('refused with 401');
    await expect(dial('ws://in-process/elsewhere', 'apppass')).rejects.toThrow('refused with 404');
    await expect(dial('not a uri', 'apppass')).rejects.toThrow("invalid uri 'not a uri'");
    expect(listener.refusedConnections).toBe(2);
    expect(sim.knownApplications()).not.toContain('ow-app');
  });

  it('persistent with subscribeAll (ari.conf subscribe_all): events of channels outside the application arrive too', async () => {
    const { clock, sim } = world();
    const seen: StreamEvent[] = [];
    const listener = connectInProcess({}, (socket) => {
      const stream = createEventStream({
        url: 'http://simulator/ari',
        apps: ['ow-app'],
        transport: socket.transport,
        pingIntervalMs: 0,
        lazy: true,
      });
      stream.events$.subscribe((event) => seen.push(event));
      stream.open();
      cleanups.push(() => stream.close());
    });
    const outbound = startOutboundWebSockets(sim, {
      dial: listener.dial,
      connections: [
        { connectionType: 'persistent', uri: 'ws://in-process/', apps: ['ow-app'], subscribeAll: true },
      ],
    });
    cleanups.push(() => outbound.close());
    await outbound.whenConnected();
    // A call that never enters the application: only subscribe_all shows it.
    const id = sim.driver.placeCall({ context: 'ow', to: 'nowhere' });
    await clock.advance(0);
    expect(seen[0]).toMatchObject({ type: 'ApplicationRegistered', application: 'ow-app' });
    expect(
      seen.some(
        (e) => e.type === 'ChannelCreated' && (e as { channel?: { id?: string } }).channel?.id === id,
      ),
    ).toBe(true);
  });
});

describe('a persistent connection while the application is down (res/ari/ari_websockets.c)', () => {
  it('its application stays registered: calls enter Stasis() and their events wait for the connection', async () => {
    const { clock, sim } = world();
    const frames: StreamEvent[][] = [];
    const streams: { close(): Promise<void> }[] = [];
    const listener = connectInProcess({}, (socket) => {
      const seen: StreamEvent[] = [];
      frames.push(seen);
      const stream = createEventStream({
        url: 'http://simulator/ari',
        apps: ['ow-app'],
        transport: socket.transport,
        pingIntervalMs: 0,
        lazy: true,
      });
      stream.events$.subscribe((event) => seen.push(event));
      stream.open();
      streams.push(stream);
      cleanups.push(() => stream.close());
    });
    let up = false;
    const outbound = startOutboundWebSockets(sim, {
      clock,
      dial: (config, protocols) =>
        up ? listener.dial(config, protocols) : Promise.reject(new Error('connect ECONNREFUSED')),
      connections: [
        { connectionType: 'persistent', uri: 'ws://in-process/', apps: ['ow-app'], reconnectIntervalMs: 500 },
      ],
    });
    cleanups.push(() => outbound.close());
    const line = (e: StreamEvent) =>
      `${e.type} ${(e as { channel?: { id?: string } }).channel?.id ?? (e as { application?: string }).application}`;

    // Nobody listens yet: the application is registered all the same, and the call enters it.
    const first = sim.driver.placeCall({ context: 'ow', to: 'persistent' });
    await clock.advance(0);
    expect(sim.knownApplications()).toContain('ow-app');
    expect(sim.hasChannel(first)).toBe(true);
    expect(frames).toEqual([]);

    up = true;
    await clock.advance(500);
    expect(frames).toHaveLength(1);
    // Registered at start-up, so ApplicationRegistered was queued before the call's events.
    expect(frames[0]!.map(line)).toEqual(['ApplicationRegistered ow-app', `StasisStart ${first}`]);

    // The connection drops; a call arriving meanwhile enters the application, and its events come
    // first on the re-opened connection, before the ApplicationRegistered that one then sends.
    up = false;
    await streams[0]!.close();
    await clock.advance(0);
    const second = sim.driver.placeCall({ context: 'ow', to: 'persistent' });
    await clock.advance(500); // one failed attempt
    expect(sim.hasChannel(second)).toBe(true);
    expect(frames).toHaveLength(1);
    up = true;
    await clock.advance(500);
    expect(frames).toHaveLength(2);
    expect(frames[1]!.map(line)).toEqual([`StasisStart ${second}`, 'ApplicationRegistered ow-app']);
    expect(outbound.opened.persistent).toBe(2);
  });
});
