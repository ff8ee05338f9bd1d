import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import {
  createEventStream,
  type EventStreamProblem,
  type EventTransport,
  type EventTransportHandlers,
  type StreamEvent,
  VirtualClock,
} from '@ringflow/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { settle, watchUnhandledRejections } from './watchUnhandledRejections.ts';

const unhandled = watchUnhandledRejections();

/** What the interface says an event is: a JSON object with a non-empty string `type`. */
function isEventFrame(frame: string): boolean {
  try {
    const value = JSON.parse(frame) as unknown;
    return (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof (value as { type?: unknown }).type === 'string' &&
      (value as { type: string }).type !== ''
    );
  } catch {
    return false;
  }
}

/** Frames a broken or hostile server could send. */
const frame: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .record({
      type: fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom('StasisStart', 'ChannelDtmfReceived', 'BrandNewEvent2031'),
      ),
      extra: fc.jsonValue({ maxDepth: 2 }),
    })
    .map((e) => JSON.stringify({ ...e, timestamp: 't', application: 'ivr' })),
  fc.record({ type: fc.jsonValue({ maxDepth: 1 }) }).map((e) => JSON.stringify(e)),
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '{}',
    '{"type":""}',
    '{"type":null}',
    '{"type":"X"',
    `{"type":"Huge","blob":"${'x'.repeat(200_000)}"}`,
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
  ),
);

/** A transport whose one connection opens at once and hands over the frames a test gives it. */
function scriptedTransport() {
  let on: EventTransportHandlers | undefined;
  const transport: EventTransport = {
    connect(_request, handlers) {
      on = handlers;
      queueMicrotask(() => handlers.open());
      return {
        ping: () => {},
        close: () => queueMicrotask(() => handlers.closed(1000, '')),
        terminate: () => {},
      };
    },
  };
  return { transport, send: (text: string) => on?.message(text) };
}

describe('fuzzing the event stream: bad frames are reported and skipped, never a crash', () => {
  it('300 random sequences of frames: every event delivered in order, every other frame one problem (seed 99)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 30 }), async (frames) => {
        const clock = new VirtualClock();
        const { transport, send } = scriptedTransport();
        const stream = createEventStream({
          url: 'http://pbx/ari',
          apps: ['ivr'],
          clock,
          transport,
          pingIntervalMs: 0,
        });
        const events: StreamEvent[] = [];
        const problems: EventStreamProblem[] = [];
        stream.events$.subscribe((e) => events.push(e));
        stream.problems$.subscribe((p) => problems.push(p));
        await stream.whenOpen();
        for (const f of frames) send(f);
        const expected = frames.filter(isEventFrame);
        expect(events.map((e) => JSON.stringify(e))).toEqual(
          expected.map((f) => JSON.stringify(JSON.parse(f))),
        );
        expect(problems.map((p) => p.kind)).toEqual(
          frames.filter((f) => !isEventFrame(f)).map(() => 'malformed-frame'),
        );
        // A huge frame never floods the logs through its error.
        for (const p of problems) expect(p.error.message.length).toBeLessThan(1200);
        expect(stream.state.kind).toBe('open');
        await stream.close();
      }),
      { numRuns: 300, seed: 99 },
    );
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('over a real WebSocket: garbage text, binary frames, a 2 MB frame and unknown events, then a normal event', async () => {
    const http = createServer();
    const wss = new WebSocketServer({ server: http });
    wss.on('connection', (socket) => {
      socket.send('not json at all');
      socket.send(Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80]), { binary: true });
      socket.send(Buffer.from(JSON.stringify({ type: 'SentAsBinary', application: 'ivr' })), {
        binary: true,
      });
      socket.send(`{"type":"Huge","blob":"${'x'.repeat(2 * 1024 * 1024)}"}`);
      socket.send(JSON.stringify({ type: 'FromTheFuture', application: 'ivr', novel: { nested: [1, 2] } }));
      socket.send('{"type":');
      socket.send(
        JSON.stringify({ type: 'StasisStart', application: 'ivr', args: [], channel: { id: 'c1' } }),
      );
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const stream = createEventStream({
      url: `http://127.0.0.1:${port}/ari`,
      apps: ['ivr'],
      username: 'u',
      password: 'p',
      pingIntervalMs: 0,
    });
    const events: StreamEvent[] = [];
    const problems: EventStreamProblem[] = [];
    stream.problems$.subscribe((p) => problems.push(p));
    const last = new Promise<void>((resolve) =>
      stream.events$.subscribe((e) => {
        events.push(e);
        if (e.type === 'StasisStart') resolve();
      }),
    );
    try {
      await last;
      expect(events.map((e) => e.type)).toEqual(['SentAsBinary', 'Huge', 'FromTheFuture', 'StasisStart']);
      expect(problems.map((p) => p.kind)).toEqual(['malformed-frame', 'malformed-frame', 'malformed-frame']);
      expect(stream.state).toMatchObject({ kind: 'open', reconnects: 0 });
    } finally {
      await stream.close();
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
    await settle();
    expect(unhandled).toEqual([]);
  });
});
