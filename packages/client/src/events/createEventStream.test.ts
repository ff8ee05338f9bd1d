import { filter, firstValueFrom, type Observable, take, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/index.ts';
import { ErrorCode } from '../errors/index.ts';
import { DEFAULT_BACKOFF, backoffDelay } from './backoff.ts';
import type { ConnectionState } from './ConnectionState.ts';
import { createEventStream, type EventStream, type EventStreamOptions } from './createEventStream.ts';
import { HandshakeRejectedError } from './HandshakeRejectedError.ts';
import { ofType } from './ofType.ts';
import { forChannel } from './resourceFilters.ts';
import { EventTestServer, type EventTestServerOptions } from './test-support/EventTestServer.ts';
import { craftedEvent, recordedEvents } from './test-support/fixtures.ts';
import { seededRandom } from './test-support/seededRandom.ts';

// Over a real WebSocket on loopback. Timers (backoff, ping, timeouts) run on a VirtualClock, so
// nothing waits for real time: the tests wait only for socket traffic.

let servers: EventTestServer[] = [];
let streams: EventStream[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});

afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

afterEach(async () => {
  await Promise.all(streams.map((s) => s.close()));
  await Promise.all(servers.map((s) => s.stop()));
  servers = [];
  streams = [];
  // Let late socket callbacks run, then check that none of them left a rejection unhandled.
  await new Promise((resolve) => setImmediate(resolve));
  expect(unhandled).toEqual([]);
});

async function startServer(options?: EventTestServerOptions) {
  const server = await EventTestServer.start(options);
  servers.push(server);
  return server;
}

function open(options: EventStreamOptions): EventStream {
  const stream = createEventStream(options);
  streams.push(stream);
  return stream;
}

function nextState<K extends ConnectionState['kind']>(
  stream: EventStream,
  kind: K,
  where: (s: Extract<ConnectionState, { kind: K }>) => boolean = () => true,
): Promise<Extract<ConnectionState, { kind: K }>> {
  return firstValueFrom(
    stream.state$.pipe(
      filter((s): s is Extract<ConnectionState, { kind: K }> => s.kind === kind && where(s as never)),
    ),
  );
}

const first = <T>(source: Observable<T>, n: number) => firstValueFrom(source.pipe(take(n), toArray()));

describe('createEventStream over a WebSocket', () => {
  it('delivers recorded events in order, unchanged and typed', async () => {
    const server = await startServer({ username: 'demo', password: 'demo' });
    const clock = new VirtualClock();
    const stream = open({
      url: server.url,
      apps: ['demo-app'],
      username: 'demo',
      password: 'demo',
      clock,
    });
    const recorded = recordedEvents().map((r) => r.event);
    const all = first(stream.events$, recorded.length);
    const starts = first(stream.events$.pipe(ofType('StasisStart')), 2);
    await stream.whenOpen();
    await server.send(0, ...recorded.map((e) => JSON.stringify(e)));
    expect(await all).toEqual(recorded);
    expect((await starts).map((e) => `${e.channel.id} [${e.args.join(',')}]`)).toEqual([
      'oracle-b []',
      'oracle-a [alpha,beta]',
    ]);
  });

  it('asks for several applications and subscribeAll on one socket, with a Basic header by default', async () => {
    const server = await startServer({ username: 'demo', password: 'demo' });
    const stream = open({
      url: server.url,
      apps: ['multi-one', 'multi-two'],
      subscribeAll: true,
      username: 'demo',
      password: 'demo',
      clock: new VirtualClock(),
    });
    await stream.whenOpen();
    expect(server.handshakes).toEqual([
      {
        url: '/ari/events?app=multi-one,multi-two&subscribeAll=true',
        authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
        status: 101,
      },
    ]);
    const event = recordedEvents().find((r) => r.conn === 'multi-app')!.event;
    const got = first(stream.events$, 1);
    await server.send(0, event);
    expect(await got).toEqual([event]);
  });

  it('can send the credentials as api_key in the query instead', async () => {
    const server = await startServer({ username: 'demo', password: 'demo' });
    const stream = open({
      url: server.url,
      apps: 'demo-app',
      username: 'demo',
      password: 'demo',
      auth: 'api_key',
      clock: new VirtualClock(),
    });
    const state = await stream.whenOpen();
    expect(server.handshakes).toEqual([
      { url: '/ari/events?app=demo-app&api_key=demo:demo', authorization: undefined, status: 101 },
    ]);
    expect(state.url).toMatch(/api_key=demo:\*\*\*$/);
  });

  it('reconnects with growing jittered delays after a drop, reports the gap, and delivers what comes after', async () => {
    const server = await startServer();
    const clock = new VirtualClock(1_000_000);
    const stream = open({ url: server.url, apps: ['demo-app'], clock, random: seededRandom(42) });
    const expected = seededRandom(42);
    const delay1 = backoffDelay(1, DEFAULT_BACKOFF, expected);
    const delay2 = backoffDelay(2, DEFAULT_BACKOFF, expected);
    const states: ConnectionState[] = [];
    stream.state$.subscribe((s) => states.push(s));
    const gaps = first(stream.gaps$, 1);

    const firstOpen = await stream.whenOpen();
    expect(firstOpen).toMatchObject({ since: 1_000_000, reconnects: 0 });
    expect(firstOpen.gap).toBeUndefined();
    await clock.advance(5_000); // the connection was up for 5 s before the drop
    server.cutNext = 1; // the first retry fails too
    (await server.socket(0)).terminate();

    const retry1 = await nextState(stream, 'reconnecting', (s) => s.attempt === 1);
    expect(retry1).toMatchObject({ delayMs: delay1, lostAt: 1_005_000, retryAt: 1_005_000 + delay1 });
    expect(retry1.reason).toMatchObject({ kind: 'closed', code: 1006 });
    await clock.advance(delay1);
    const retry2 = await nextState(stream, 'reconnecting', (s) => s.attempt === 2);
    expect(retry2.delayMs).toBe(delay2);
    expect(retry2.reason.kind).toBe('error');
    await clock.advance(delay2);

    const reopened = await nextState(stream, 'open', (s) => s.reconnects === 1);
    const gap = {
      from: 1_005_000,
      to: 1_005_000 + delay1 + delay2,
      durationMs: delay1 + delay2,
      attempts: 2,
    };
    expect(reopened.gap).toEqual(gap);
    expect(await gaps).toEqual([gap]);
    expect(states.map((s) => `${s.kind}${'attempt' in s ? s.attempt : ''}`)).toEqual([
      'connecting0',
      'open',
      'reconnecting1',
      'connecting1',
      'reconnecting2',
      'connecting2',
      'open',
    ]);
    expect(delay1).toBeGreaterThanOrEqual(250);
    expect(delay1).toBeLessThanOrEqual(500);
    expect(delay2).toBeGreaterThanOrEqual(500);
    expect(delay2).toBeLessThanOrEqual(1000);

    const after = craftedEvent('StasisEnd');
    const got = first(stream.events$, 1);
    await server.send(1, after);
    expect(await got).toEqual([after]);
    expect(server.handshakes.map((h) => h.status)).toEqual([101, 0, 101]);
  });

  it('replaces a connection whose server stops answering pings', async () => {
    const server = await startServer({ autoPong: false });
    const clock = new VirtualClock();
    const stream = open({
      url: server.url,
      apps: ['demo-app'],
      clock,
      pingIntervalMs: 1_000,
      pongTimeoutMs: 500,
      random: () => 0,
    });
    const problems = first(stream.problems$, 1);
    await stream.whenOpen();
    await clock.advance(1_000); // ping sent
    await clock.advance(500); // no pong
    const [problem] = await problems;
    expect(problem).toMatchObject({ kind: 'pong-timeout', error: { code: ErrorCode.TIMEOUT } });
    const retry = await nextState(stream, 'reconnecting');
    expect(retry).toMatchObject({ attempt: 1, delayMs: 500, reason: { kind: 'pong-timeout' } });
    expect(server.pings[0]).toBe(1);
    await clock.advance(500);
    await nextState(stream, 'open', (s) => s.reconnects === 1);
    expect(server.sockets).toHaveLength(2);
    // The silent connection was terminated, not left open beside the new one.
    const firstSocket = await server.socket(0);
    await waitUntil(() => firstSocket.readyState === firstSocket.CLOSED);
    expect(server.openSockets).toBe(1);
  });

  it('keeps a connection whose server answers pings', async () => {
    const server = await startServer();
    const clock = new VirtualClock();
    const stream = open({
      url: server.url,
      apps: ['demo-app'],
      clock,
      pingIntervalMs: 1_000,
      pongTimeoutMs: 500,
    });
    await stream.whenOpen();
    for (let i = 1; i <= 3; i++) {
      const due = clock.nextDue()!;
      await clock.advanceTo(due); // the ping goes out; its pong timer would fire at due + 500
      // The pong arrives over the socket; it clears the pong timer and arms the next ping.
      await waitUntil(() => server.pings[0] === i);
      await waitUntil(() => clock.nextDue() === due + 1_000);
      expect(clock.pendingTimers).toBe(1);
      expect(stream.state.kind).toBe('open');
    }
    expect(server.handshakes).toHaveLength(1);
  });

  it('reports malformed frames and skips them; the stream goes on', async () => {
    const server = await startServer();
    const stream = open({ url: server.url, apps: ['demo-app'], clock: new VirtualClock() });
    const problems = first(stream.problems$, 3);
    const events = first(stream.events$, 2);
    await stream.whenOpen();
    const before = recordedEvents()[0]!.event;
    const after = recordedEvents()[1]!.event;
    await server.send(0, before, 'not json {', '[1,2,3]', '{"event":"no type"}', after);
    expect(await events).toEqual([before, after]);
    expect(
      (await problems).map((p) => `${p.kind}:${p.kind === 'malformed-frame' ? p.error.reason : ''}`),
    ).toEqual(['malformed-frame:not-json', 'malformed-frame:not-an-object', 'malformed-frame:missing-type']);
    expect(stream.state.kind).toBe('open');
  });

  it('reads JSON sent in binary frames as text', async () => {
    const server = await startServer();
    const stream = open({ url: server.url, apps: ['demo-app'], clock: new VirtualClock() });
    const event = recordedEvents()[2]!.event;
    const got = first(stream.events$, 1);
    await stream.whenOpen();
    (await server.socket(0)).send(Buffer.from(JSON.stringify(event)), { binary: true });
    expect(await got).toEqual([event]);
  });

  it('passes unknown event types and unknown fields through unchanged', async () => {
    const server = await startServer();
    const stream = open({ url: server.url, apps: ['demo-app'], clock: new VirtualClock() });
    const unknown = craftedEvent('ChannelSentimentChanged');
    const extended = craftedEvent('StasisEnd');
    const events = first(stream.events$, 2);
    const forCaller = first(stream.events$.pipe(forChannel('crafted-caller')), 2);
    await stream.whenOpen();
    await server.send(0, unknown, extended);
    expect(await events).toEqual([unknown, extended]);
    expect(await forCaller).toEqual([unknown, extended]);
  });

  it('reports a wrong password loudly and keeps retrying with backoff', async () => {
    const server = await startServer({ username: 'demo', password: 'demo' });
    const clock = new VirtualClock();
    const stream = open({
      url: server.url,
      apps: ['demo-app'],
      username: 'demo',
      password: 'wrong',
      clock,
      random: () => 0,
    });
    const rejection = stream.whenOpen().then(
      () => undefined,
      (e: unknown) => e,
    );
    const problem = first(stream.problems$, 1);
    const error = await rejection;
    expect(error).toBeInstanceOf(HandshakeRejectedError);
    expect(error).toMatchObject({
      status: 401,
      code: ErrorCode.HTTP_ERROR,
      serverMessage: 'Authentication required',
    });
    expect((error as Error).message).toContain('`username` and `password`');
    expect(await problem).toEqual([{ kind: 'handshake-rejected', at: clock.now(), error }]);
    const retry = await nextState(stream, 'reconnecting');
    expect(retry).toMatchObject({ attempt: 1, delayMs: 500, reason: { kind: 'rejected', status: 401 } });
    await clock.advance(500);
    await nextState(stream, 'reconnecting', (s) => s.attempt === 2);
    expect(server.handshakes.map((h) => h.status)).toEqual([401, 401]);
  });

  it('can stop at the first refusal instead, explaining a 400 from the server page', async () => {
    const server = await startServer();
    server.rejectNext = {
      status: 400,
      contentType: 'text/html',
      body: '<html><body><h1>Bad Request</h1><p>HTTP request is missing param: [app]</p></body></html>',
    };
    const clock = new VirtualClock();
    const stream = open({ url: server.url, apps: ['x'], clock, stopOnRejection: true });
    const closed = await nextState(stream, 'closed');
    expect(closed.by).toBe('rejected');
    expect(closed.error).toMatchObject({
      status: 400,
      serverMessage: 'HTTP request is missing param: [app]',
    });
    expect(closed.error?.message).toContain('application name');
    expect(clock.pendingTimers).toBe(0);
    await expect(stream.whenOpen()).rejects.toBe(closed.error);
  });

  it('close() while open closes the socket politely, leaves no timers and completes everything', async () => {
    const server = await startServer();
    const clock = new VirtualClock();
    const stream = open({ url: server.url, apps: ['demo-app'], clock });
    const all = <T>(source: Observable<T>) => firstValueFrom(source.pipe(toArray()));
    const completed = Promise.all([
      all(stream.events$),
      all(stream.state$),
      all(stream.gaps$),
      all(stream.problems$),
    ]);
    await stream.whenOpen();
    expect(clock.pendingTimers).toBe(1); // the next ping
    const socket = await server.socket(0);
    const serverSawClose = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await stream.close();
    expect(await serverSawClose).toBe(1000);
    expect(clock.pendingTimers).toBe(0);
    expect(stream.state).toMatchObject({ kind: 'closed', by: 'user' });
    const [, states] = await completed;
    expect(states.map((s) => s.kind)).toEqual(['connecting', 'open', 'closed']);
    expect(server.openSockets).toBe(0);
    await expect(stream.whenOpen()).rejects.toMatchObject({ code: ErrorCode.CLOSED });
  });

  it('close() while waiting to reconnect cancels the retry', async () => {
    const server = await startServer();
    const clock = new VirtualClock();
    const stream = open({ url: server.url, apps: ['demo-app'], clock });
    await stream.whenOpen();
    (await server.socket(0)).terminate();
    await nextState(stream, 'reconnecting');
    expect(clock.pendingTimers).toBe(1);
    await stream.close();
    expect(clock.pendingTimers).toBe(0);
    await clock.runUntilIdle();
    expect(server.handshakes).toHaveLength(1);
    expect(server.openSockets).toBe(0);
  });

  it('close() while the handshake is under way abandons it', async () => {
    const server = await startServer();
    const clock = new VirtualClock();
    const stream = open({ url: server.url, apps: ['demo-app'], clock });
    await Promise.resolve(); // let the connection attempt start
    await stream.close();
    expect(clock.pendingTimers).toBe(0);
    expect(stream.state.kind).toBe('closed');
    await clock.runUntilIdle();
    expect(server.openSockets).toBe(0);
  });
});

/** Waits for socket traffic to make a condition true, one event-loop turn at a time (no timers). */
async function waitUntil(condition: () => boolean, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not reached');
}
