import { Writable } from 'node:stream';
import { VirtualClock } from '@ringflow/client';
import {
  type CallEnded,
  type CallInput,
  callActors,
  type DialOutput,
  type PlayOutput,
} from '@ringflow/runtime';
import { createSimulator, type SimulatorOptions } from '@ringflow/simulator';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { inProcessApp } from './harness.ts';

/** A hand-written machine that plays `media` once and ends with how the prompt went. */
function playOnce(media: string, bargeIn = false) {
  return setup({
    types: { input: {} as CallInput, context: {} as { outcome?: PlayOutput['outcome'] } },
    actors: callActors,
  }).createMachine({
    context: {},
    initial: 'answering',
    states: {
      answering: { invoke: { src: 'answer', onDone: 'playing' } },
      playing: {
        invoke: {
          src: 'play',
          input: { media, bargeIn },
          onDone: { target: 'done', actions: assign({ outcome: ({ event }) => event.output.outcome }) },
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ outcome: context.outcome }),
  });
}

/** A hand-written machine that dials `endpoint` and ends with how the dial went. */
function dialOnce(endpoint: string) {
  return setup({
    types: { input: {} as CallInput, context: {} as { dialled?: DialOutput } },
    actors: callActors,
  }).createMachine({
    context: {},
    initial: 'answering',
    states: {
      answering: { invoke: { src: 'answer', onDone: 'dialling' } },
      dialling: {
        invoke: {
          src: 'dial',
          input: { endpoint, timeoutSeconds: 10 },
          onDone: { target: 'done', actions: assign({ dialled: ({ event }) => event.output }) },
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({
      outcome: context.dialled?.outcome,
      reason: context.dialled?.outcome === 'unanswered' ? context.dialled.reason : undefined,
    }),
  });
}

async function run(
  machine: ReturnType<typeof playOnce> | ReturnType<typeof dialOnce>,
  press?: { at: number; digit: string },
  endpoints?: SimulatorOptions['endpoints'],
) {
  const clock = new VirtualClock();
  const simulator = createSimulator({ clock, ...(endpoints ? { endpoints } : {}) });
  const warnings: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) warnings.push(JSON.parse(line));
        done();
      },
    }),
  );
  const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
    apps: ['demo'],
    call: machine,
    logger,
  });
  const ended: CallEnded[] = [];
  app.callEnded$.subscribe((e) => ended.push(e));
  await app.start();
  simulator.driver.placeCall({
    channelId: 'caller-1',
    from: '5551234',
    to: '100',
    endpoint: 'PJSIP/caller',
    app: 'demo',
  });
  if (press) {
    await clock.advance(press.at);
    simulator.driver.pressDigits('caller-1', press.digit);
  }
  await clock.advance(60_000);
  await app.stop();
  return { ended, warnings, requests };
}

describe('the play call actor (the runtime prompt rules)', () => {
  it('a sound the server cannot play ends the prompt `failed`, with a warning naming the media', async () => {
    const { ended, warnings } = await run(playOnce('sound:no-such-file'));
    expect(ended[0]?.output).toEqual({ outcome: 'failed' });
    expect(
      warnings.some((w) => String(w.msg).includes('could not play') && w.media === 'sound:no-such-file'),
    ).toBe(true);
  });

  it('a sound that plays ends `finished`, without a warning', async () => {
    const { ended, warnings } = await run(playOnce('sound:hello-world'));
    expect(ended[0]?.output).toEqual({ outcome: 'finished' });
    expect(warnings.filter((w) => String(w.msg).includes('could not play'))).toEqual([]);
  });

  it('with barge-in, a key stops the prompt: `interrupted`, and the playback is stopped on the server', async () => {
    const { ended, requests } = await run(playOnce('sound:vm-intro', true), { at: 1000, digit: '5' });
    expect(ended[0]?.output).toEqual({ outcome: 'interrupted' });
    expect(requests.some((r) => r.method === 'DELETE' && r.path.startsWith('/playbacks/'))).toBe(true);
  });
});

describe('the dial call actor (the runtime dialling rules)', () => {
  const endpoints = {
    'PJSIP/busy': 'busy',
    'PJSIP/away': 'noAnswer',
    'PJSIP/desk': { answerAfterMs: 2000 },
  } as const;

  it("says why a call was not answered, from its hangup cause, as the flow language's dial does", async () => {
    expect((await run(dialOnce('PJSIP/busy'), undefined, endpoints)).ended[0]?.output).toEqual({
      outcome: 'unanswered',
      reason: 'busy',
    });
    expect((await run(dialOnce('PJSIP/away'), undefined, endpoints)).ended[0]?.output).toEqual({
      outcome: 'unanswered',
      reason: 'noAnswer',
    });
  });

  it('a call that is answered enters the application: answered', async () => {
    expect((await run(dialOnce('PJSIP/desk'), undefined, endpoints)).ended[0]?.output).toEqual({
      outcome: 'answered',
      reason: undefined,
    });
  });
});
