import { Writable } from 'node:stream';
import { VirtualClock } from '@ringflow/client';
import {
  createApplication,
  type InProcessServer,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import { createFlowCallMachine } from './createFlowCallMachine.ts';

/** A pino logger at `level` whose records land in `records`, parsed. */
function capturingLogger(level: string, records: Record<string, unknown>[]) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) records.push(JSON.parse(line));
      done();
    },
  });
  return pino({ level }, sink);
}

const greet = defineFlow({
  name: 'greet',
  start: 'a',
  states: {
    a: { steps: ['answer', { play: { media: 'sound:demo-congrats', bargeIn: true } }, 'hangup'] },
  },
});

/**
 * Runs `greet` with a caller who presses a key during the prompt, on a server where the prompt
 * ends just before the barge-in stop arrives: the stop is carried out, then answered 404 as a
 * server does when the playback it names has just finished.
 */
async function bargeInThatLosesTheRace(level: string) {
  const clock = new VirtualClock();
  const simulator = createSimulator({ clock });
  const server: InProcessServer = {
    handle: async (request) => {
      const reply = await simulator.handle(request);
      if (request.method === 'DELETE' && request.path.startsWith('/playbacks/'))
        return { status: 404, body: { message: 'Playback not found' } };
      return reply;
    },
    connectEvents: (request, deliver) => simulator.connectEvents(request, deliver),
  };
  const records: Record<string, unknown>[] = [];
  const app = createApplication({
    servers: [
      {
        url: 'http://simulator/ari',
        username: 'flow',
        password: 'test',
        restTransport: inProcessRestTransport(server),
        eventTransport: inProcessEventTransport(server),
        eventStream: { pingIntervalMs: 0 },
      },
    ],
    apps: ['greet'],
    call: createFlowCallMachine(greet),
    clock,
    logger: capturingLogger(level, records),
  });
  await app.start();
  simulator.driver.placeCall({ app: 'greet', channelId: 'c1', from: '100' });
  await clock.advance(500);
  simulator.driver.pressDigits('c1', '5');
  await clock.runUntilIdle();
  await app.stop();
  return records;
}

describe('the flow host of a runtime call', () => {
  it('logs a barge-in stop that found its prompt already ended at debug, on the call, not as a warning', async () => {
    const records = await bargeInThatLosesTheRace('debug');
    const race = records.filter((r) => r.msg === 'barge-in stop: the playback had already finished');
    expect(race).toHaveLength(1);
    expect(race[0]).toMatchObject({ level: 20, call: 'c1', app: 'greet' });
    expect(typeof race[0]?.playbackId).toBe('string');
    expect(records.filter((r) => r.level === 40)).toEqual([]);
  });

  it('writes nothing about the race at the usual production level', async () => {
    const records = await bargeInThatLosesTheRace('info');
    expect(records.some((r) => String(r.msg).includes('barge-in'))).toBe(false);
    expect(records.filter((r) => Number(r.level) >= 40)).toEqual([]);
  });
});
