import { Writable } from 'node:stream';
import { type RestClient, type StasisStart, type StreamEvent, VirtualClock } from '@ringflow/client';
import { type Logger, pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createMachine } from 'xstate';
import { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import { CallSession } from './CallSession.ts';
import type { SessionHost } from './SessionHost.ts';
import { SessionRouter } from './SessionRouter.ts';

const ASTERISK_ID = '02:fc:00:00:00:01';

/** A pino logger at `level` keeping its records in memory, with its `child` calls counted. */
function memoryLogger(level: pino.LevelWithSilent): { logger: Logger; records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line !== '') records.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, sink), records };
}

function hostWith(logger: Logger, clock: VirtualClock): SessionHost {
  return {
    server: { name: 'pbx-a', asteriskId: ASTERISK_ID },
    // The machine below sends nothing and the session hangs nothing up: no request is made.
    client: {} as RestClient,
    clock,
    router: new SessionRouter(),
    metrics: new RuntimeMetrics(clock),
    logger,
    pickId: (kind) => `${kind}-1`,
    queue: () => {
      throw new Error('no call queues in this test');
    },
    cleanup: () => {},
    isBeingRemoved: () => false,
  };
}

function event(type: 'StasisStart' | 'StasisEnd', channelId: string): StreamEvent {
  return {
    type,
    application: 'ivr',
    timestamp: '2026-01-01T00:00:00.000+0000',
    asterisk_id: ASTERISK_ID,
    channel: { id: channelId, name: `PJSIP/${channelId}`, state: 'Up' },
    ...(type === 'StasisStart' ? { args: [] } : {}),
  } as unknown as StreamEvent;
}

/** Runs one call through a session, start to end, with a machine that waits forever. */
async function runCall(logger: Logger): Promise<void> {
  const clock = new VirtualClock();
  const session = new CallSession(hostWith(logger, clock), {
    channelId: 'call-1',
    direction: 'inbound',
    machineFor: (_start: StasisStart) => createMachine({}),
    onEnded: () => {},
  });
  session.deliver(event('StasisStart', 'call-1'));
  session.deliver(event('StasisEnd', 'call-1'));
  await clock.runUntilIdle();
  expect(session.ended).toBe(true);
}

describe('CallSession logging', () => {
  it('makes no child logger for a call that logs nothing at the runtime level', async () => {
    const { logger, records } = memoryLogger('warn');
    const child = vi.spyOn(logger, 'child');
    await runCall(logger);
    expect(child).not.toHaveBeenCalled();
    expect(records).toEqual([]);
  });

  it('makes one child logger per call, bound to the call id, server and application', async () => {
    const { logger, records } = memoryLogger('info');
    const child = vi.spyOn(logger, 'child');
    await runCall(logger);
    expect(child).toHaveBeenCalledTimes(1);
    const messages = records.map((r) => r.msg);
    expect(messages).toEqual(['call started', 'call ended']);
    for (const record of records) {
      expect(record).toMatchObject({ call: 'call-1', server: 'pbx-a', app: 'ivr' });
    }
  });

  it('writes each key once when the host logger already carries the server (a server link)', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) }).child({
      server: 'pbx-a',
    });
    await runCall(logger);
    expect(lines.length).toBe(2);
    for (const line of lines) expect(line.match(/"server":/g)).toHaveLength(1);
  });
});
