import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/index.ts';
import { ErrorCode, RingflowError } from '../errors/index.ts';
import { backoffDelay, resolveBackoff } from './backoff.ts';
import type { ConnectionState, EventStreamProblem } from './ConnectionState.ts';
import { createEventStream, type EventStreamOptions } from './createEventStream.ts';
import type { StreamEvent } from './StreamEvent.ts';
import { ScriptedTransport } from './test-support/ScriptedTransport.ts';
import { seededRandom } from './test-support/seededRandom.ts';
import { pino } from 'pino';

// The stream's rules, driven through an in-memory transport and a VirtualClock: no sockets.

function setup(options: Partial<EventStreamOptions> = {}) {
  const clock = new VirtualClock(0);
  const transport = new ScriptedTransport();
  const stream = createEventStream({
    url: 'http://127.0.0.1:8088/ari',
    apps: ['ivr'],
    clock,
    transport,
    ...options,
  });
  const states: ConnectionState[] = [];
  const events: StreamEvent[] = [];
  const problems: EventStreamProblem[] = [];
  stream.state$.subscribe((s) => states.push(s));
  stream.events$.subscribe((e) => events.push(e));
  stream.problems$.subscribe((p) => problems.push(p));
  return { clock, transport, stream, states, events, problems };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createEventStream rules', () => {
  it('a lazy stream connects only when opened (once, however often it is opened)', async () => {
    const { transport, stream } = setup({ lazy: true });
    await tick();
    expect(transport.connections).toHaveLength(0);
    stream.open();
    stream.open();
    await tick();
    expect(transport.connections).toHaveLength(1);
  });

  it('hands the transport the URL, headers and the same facts unparsed', async () => {
    const { transport } = setup({ apps: ['a', 'b'], subscribeAll: true, username: 'u', password: 'p' });
    await tick();
    expect(transport.last.request).toMatchObject({
      url: 'ws://127.0.0.1:8088/ari/events?app=a,b&subscribeAll=true',
      headers: { Authorization: `Basic ${Buffer.from('u:p').toString('base64')}` },
      apps: ['a', 'b'],
      subscribeAll: true,
      credentials: { username: 'u', password: 'p' },
    });
  });

  it('takes already parsed objects from in-process transports, even delivered inside connect()', async () => {
    const { transport, events, stream } = setup();
    const event = { type: 'StasisStart', args: [], channel: { id: 'c1' }, application: 'ivr' };
    transport.onConnect = (c) => {
      c.handlers.open();
      c.handlers.message(event);
      c.handlers.message({ no: 'type' });
    };
    await stream.whenOpen();
    expect(events).toEqual([event]);
    expect(events[0]).toBe(event);
  });

  it('retries forever with growing jittered delays, all from the clock and the given random', async () => {
    const random = seededRandom(9);
    const expected = seededRandom(9);
    const { clock, transport, states } = setup({
      random,
      backoff: { initialDelayMs: 100, maxDelayMs: 1_000 },
    });
    const settings = resolveBackoff({ initialDelayMs: 100, maxDelayMs: 1_000 });
    transport.onConnect = (c) => queueMicrotask(() => c.handlers.closed(1006, ''));
    await tick();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      const state = states.at(-1)!;
      expect(state).toMatchObject({ kind: 'reconnecting', attempt });
      if (state.kind !== 'reconnecting') return;
      delays.push(state.delayMs);
      expect(state.delayMs).toBe(backoffDelay(attempt, settings, expected));
      await clock.advance(state.delayMs);
    }
    const ceilings = [100, 200, 400, 800, 1000, 1000, 1000, 1000, 1000, 1000];
    delays.forEach((d, i) => {
      expect(d).toBeLessThanOrEqual(ceilings[i]!);
      expect(d).toBeGreaterThanOrEqual(ceilings[i]! / 2);
    });
    expect(transport.connections).toHaveLength(11);
    expect(clock.pendingTimers).toBe(1);
  });

  it('starts over at the first delay after a connection that held, not after one that dropped at once', async () => {
    const { clock, transport, states } = setup({ random: () => 0, backoff: { resetAfterMs: 10_000 } });
    transport.onConnect = (c) => c.handlers.open();
    await tick();
    transport.last.handlers.closed(1006, ''); // dropped at once
    expect(states.at(-1)).toMatchObject({ kind: 'reconnecting', attempt: 1, delayMs: 500 });
    await clock.advance(500);
    transport.last.handlers.closed(1006, ''); // dropped at once again: keep backing off
    expect(states.at(-1)).toMatchObject({ kind: 'reconnecting', attempt: 2, delayMs: 1000 });
    await clock.advance(1000);
    await clock.advance(10_000); // this one holds (ping answered along the way)
    transport.last.handlers.closed(1006, '');
    expect(states.at(-1)).toMatchObject({ kind: 'reconnecting', attempt: 1, delayMs: 500, lostAt: 11_500 });
  });

  it('gives up on a handshake that hangs, after connectTimeoutMs, and tries again', async () => {
    const { clock, transport, states, problems } = setup({ connectTimeoutMs: 2_000, random: () => 0 });
    await tick();
    await clock.advance(1_999);
    expect(states.at(-1)?.kind).toBe('connecting');
    await clock.advance(1);
    expect(problems.map((p) => [p.kind, p.error.code])).toEqual([['connect-timeout', ErrorCode.TIMEOUT]]);
    expect(transport.connections[0]?.endedBy).toBe('terminate');
    expect(states.at(-1)).toMatchObject({
      kind: 'reconnecting',
      attempt: 1,
      reason: { kind: 'connect-timeout' },
    });
    await clock.advance(500);
    expect(transport.connections).toHaveLength(2);
  });

  it('ignores whatever a replaced connection still reports', async () => {
    const { clock, transport, events, states } = setup({ connectTimeoutMs: 1_000, random: () => 0 });
    await tick();
    const stale = transport.last;
    await clock.advance(1_000); // timed out
    await clock.advance(500);
    stale.handlers.open();
    stale.handlers.message('{"type":"StasisStart"}');
    stale.handlers.closed(1006, '');
    expect(events).toEqual([]);
    expect(states.at(-1)).toMatchObject({ kind: 'connecting', attempt: 1 });
  });

  it('reports a transport that throws from connect and retries', async () => {
    const { clock, transport, problems, states } = setup({ random: () => 0 });
    transport.failConnect = new Error('EMFILE');
    await tick();
    expect(problems.map((p) => p.kind)).toEqual(['transport-error']);
    expect((problems[0]!.error.cause as Error).message).toBe('EMFILE');
    expect(states.at(-1)).toMatchObject({ kind: 'reconnecting', attempt: 1 });
    transport.failConnect = undefined;
    transport.onConnect = (c) => c.handlers.open();
    await clock.advance(500);
    expect(states.at(-1)).toMatchObject({ kind: 'open', reconnects: 0 });
    expect((states.at(-1) as { gap?: unknown }).gap).toBeUndefined(); // never open before: nothing missed
  });

  it('an error on an open connection ends it, reports NETWORK and reconnects', async () => {
    const { transport, problems, states } = setup({ random: () => 0 });
    transport.onConnect = (c) => c.handlers.open();
    await tick();
    transport.last.handlers.error(new Error('read ECONNRESET'));
    expect(problems[0]).toMatchObject({ kind: 'transport-error', error: { code: ErrorCode.NETWORK } });
    // As the log shows it (pino appends the cause to the message): one sentence, the cause once.
    expect(pino.stdSerializers.err(problems[0]!.error).message).toBe(
      'The event stream ws://127.0.0.1:8088/ari/events?app=ivr failed, reconnecting with backoff: read ECONNRESET',
    );
    expect(transport.last.endedBy).toBe('terminate');
    expect(states.at(-1)).toMatchObject({ kind: 'reconnecting', reason: { kind: 'error' } });
  });

  it('does not connect at all when closed right after creation', async () => {
    const { transport, stream, clock } = setup();
    const closing = stream.close();
    await tick();
    await closing;
    expect(transport.connections).toHaveLength(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('completes its observables on close and emits nothing after', async () => {
    const { transport, stream, events } = setup();
    transport.onConnect = (c) => c.handlers.open();
    const all = firstValueFrom(stream.events$.pipe(toArray()));
    await stream.whenOpen();
    const conn = transport.last;
    conn.handlers.message('{"type":"A"}');
    await stream.close();
    conn.handlers.message('{"type":"B"}');
    expect(await all).toEqual([{ type: 'A' }]);
    expect(events).toEqual([{ type: 'A' }]);
    expect(conn.endedBy).toBe('close');
  });

  it('turns liveness checks off with pingIntervalMs 0', async () => {
    const { transport, clock, stream } = setup({ pingIntervalMs: 0 });
    transport.onConnect = (c) => c.handlers.open();
    await stream.whenOpen();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(3_600_000);
    expect(transport.last.pings).toBe(0);
  });

  it('refuses bad options with CONFIG errors naming the option', () => {
    for (const [options, field] of [
      [{ pingIntervalMs: -1 }, 'pingIntervalMs'],
      [{ pongTimeoutMs: 0 }, 'pongTimeoutMs'],
      [{ connectTimeoutMs: Number.NaN }, 'connectTimeoutMs'],
      [{ backoff: { jitter: -0.1 } }, 'backoff.jitter'],
    ] as const) {
      let thrown: unknown;
      try {
        createEventStream({
          url: 'http://h/ari',
          apps: ['a'],
          transport: new ScriptedTransport(),
          ...options,
        });
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(RingflowError);
      expect(thrown).toMatchObject({ code: ErrorCode.CONFIG, message: expect.stringContaining(field) });
    }
  });
});
