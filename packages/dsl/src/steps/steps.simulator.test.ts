import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import type { FlowDocument } from '../model/flowSchema.ts';
import { runFlowOnSimulator } from './test-support/runFlowOnSimulator.ts';

let run: Awaited<ReturnType<typeof runFlowOnSimulator>> | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

const calls = (r: NonNullable<typeof run>) => r.requests().map((q) => `${q.method} ${q.path}`);

describe('steps compiled and run on the simulator', () => {
  it('gather collects digits up to the terminator; set, if and as work on the result', async () => {
    const flow = defineFlow({
      name: 'pin',
      start: 'ask',
      vars: { tries: 0 },
      states: {
        ask: {
          steps: [
            'answer',
            { set: { tries: { expr: 'vars.tries + 1' } } },
            {
              gather: {
                media: 'sound:conf-getpin',
                maxDigits: 6,
                minDigits: 4,
                as: 'pin',
                on: { noMatch: 'ask', noInput: 'bye' },
              },
            },
            {
              userEvent: {
                name: 'Pin',
                if: "vars.pin.digits == '1234'",
                variables: { tries: { expr: 'vars.tries' } },
              },
            },
          ],
          next: 'bye',
        },
        bye: { steps: ['hangup'] },
      },
    } satisfies FlowDocument);
    run = await runFlowOnSimulator(flow);
    await run.clock.advance(500);
    await run.press('12#'); // too short: noMatch, asked again
    await run.clock.advance(3_000);
    await run.press('1234#');
    await run.clock.advance(3_000);
    expect(run.visited()).toEqual(['ask', 'bye']);
    const event = run.requests().find((r) => r.path === '/events/user/Pin');
    expect(event?.body).toMatchObject({ variables: { tries: '2' } });
    expect(calls(run).filter((c) => c.startsWith('POST') && c.endsWith('/play')).length).toBe(2);
  });

  it('gather without input ends with noInput after the first-digit timeout', async () => {
    const flow = defineFlow({
      name: 'silent',
      start: 'a',
      states: {
        a: {
          steps: ['answer', { gather: { firstDigitTimeout: '4s', on: { noInput: 'timedOut' } } }],
          next: 'b',
        },
        b: { steps: ['hangup'] },
        timedOut: { steps: [{ userEvent: { name: 'NoInput' } }, 'hangup'] },
      },
    });
    run = await runFlowOnSimulator(flow);
    await run.clock.advance(3_900);
    expect(run.visited()).toEqual(['a']);
    await run.clock.advance(200);
    expect(run.visited()).toEqual(['a', 'timedOut']);
  });

  it('gather restarts the inter-digit timeout with each key, ends at maxDigits during the prompt, and a key outside validDigits is a no-match', async () => {
    const flow = defineFlow({
      name: 'keys',
      start: 'a',
      states: {
        a: {
          steps: [
            'answer',
            {
              gather: {
                media: 'sound:conf-getpin',
                maxDigits: 3,
                terminator: 'none',
                validDigits: '0123456789',
                interDigitTimeout: '2s',
                as: 'got',
                on: { noMatch: { goto: 'wrong', set: { bad: { expr: 'event.digits' } } } },
              },
            },
            { userEvent: { name: 'Got', variables: { digits: { expr: 'vars.got.digits' } } } },
          ],
          next: 'b',
        },
        b: { steps: ['hangup'] },
        wrong: {
          steps: [{ userEvent: { name: 'Wrong', variables: { digits: { expr: 'vars.bad' } } } }, 'hangup'],
        },
      },
    });
    // Keys 1.5 s apart (under the 2 s inter-digit timeout each time, 3 s in all), the first during the prompt.
    run = await runFlowOnSimulator(flow);
    await run.clock.advance(100);
    await run.press('1');
    await run.clock.advance(1_500);
    await run.press('2');
    await run.clock.advance(1_500);
    await run.press('3');
    await run.clock.advance(100);
    expect(run.requests().find((r) => r.path === '/events/user/Got')?.body).toMatchObject({
      variables: { digits: '123' },
    });
    expect(run.visited()).toEqual(['a', 'b']);
    await run.close();

    run = await runFlowOnSimulator(flow);
    await run.clock.advance(100);
    await run.press('4');
    await run.clock.advance(500);
    await run.press('*');
    await run.clock.advance(100);
    expect(run.visited()).toEqual(['a', 'wrong']);
    expect(run.requests().find((r) => r.path === '/events/user/Wrong')?.body).toMatchObject({
      variables: { digits: '4*' },
    });
  });

  it('channel controls, wait, channel variables and continue in the dialplan', async () => {
    const flow = defineFlow({
      name: 'controls',
      start: 'a',
      states: {
        a: {
          steps: [
            'answer',
            'ring',
            'stopRinging',
            'hold',
            'unhold',
            { mute: { direction: 'in' } },
            'unmute',
            'startSilence',
            'stopSilence',
            { startMoh: {} },
            { wait: { duration: '2s' } },
            'stopMoh',
            { setChannelVar: { variables: { LEVEL: 'gold' } } },
            { getChannelVar: { name: 'LEVEL', as: 'level' } },
            { getChannelVar: { name: 'NOPE', on: { missing: { set: { missing: true } } } } },
            { continue: { context: 'ivr-exits', extension: 's', label: 'operator' } },
          ],
        },
      },
      vars: { missing: false },
    });
    run = await runFlowOnSimulator(flow);
    await run.clock.advance(5_000);
    expect(calls(run)).toEqual([
      'POST /channels/callee/answer',
      'POST /channels/callee/ring',
      'DELETE /channels/callee/ring',
      'POST /channels/callee/hold',
      'DELETE /channels/callee/hold',
      'POST /channels/callee/mute',
      'DELETE /channels/callee/mute',
      'POST /channels/callee/silence',
      'DELETE /channels/callee/silence',
      'POST /channels/callee/moh',
      'DELETE /channels/callee/moh',
      'POST /channels/callee/variable',
      'GET /channels/callee/variable',
      'GET /channels/callee/variable',
      'POST /channels/callee/continue',
    ]);
    const snapshot = run.session()?.machine?.getSnapshot();
    expect(snapshot?.context.vars).toMatchObject({
      level: { outcome: 'found', value: 'gold' },
      missing: true,
    });
  });

  it('http calls a loopback webhook and routes on its JSON answer; subflows return output', async () => {
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ vip: req.url === '/caller/100' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const flow = defineFlow({
        name: 'lookup',
        start: 'a',
        inputs: { base: { type: 'string', required: true } },
        states: {
          a: {
            steps: [
              'answer',
              { http: { url: { expr: "input.base + '/caller/100'" }, as: 'crm', on: { failed: 'b' } } },
              {
                subflow: { flow: 'greeting', inputs: { vip: { expr: 'vars.crm.body.vip' } }, as: 'greeted' },
              },
            ],
            choose: [{ when: "vars.greeted.output.said == 'vip'", goto: 'vip' }, { goto: 'b' }],
          },
          vip: { steps: [{ userEvent: { name: 'Vip' } }, 'hangup'] },
          b: { steps: ['hangup'] },
        },
        subflows: {
          greeting: {
            inputs: { vip: { type: 'boolean', default: false } },
            start: 's',
            states: {
              s: {
                steps: [{ play: { media: 'sound:beep' } }],
                choose: [{ when: 'input.vip', goto: 'v' }, { goto: 'n' }],
              },
              v: { final: true, output: { said: 'vip' } },
              n: { final: true, output: { said: 'normal' } },
            },
          },
        },
      });
      run = await runFlowOnSimulator(flow, { inputs: { base: `http://127.0.0.1:${port}` } });
      // Real sockets: give the loopback request a moment of real time between virtual steps.
      for (let i = 0; i < 50 && !run.visited().includes('vip') && !run.visited().includes('b'); i++) {
        await new Promise((r) => setTimeout(r, 10));
        await run.clock.advance(100);
      }
      expect(run.visited()).toEqual(['a', 'vip']);
    } finally {
      server.close();
    }
  });

  it('conference joins a named bridge and plays to it; videoSource sets it to this call', async () => {
    const flow = defineFlow({
      name: 'room',
      start: 'a',
      states: {
        a: {
          steps: [
            'answer',
            { conference: { name: 'sales-room', as: 'room' } },
            { bridgePlay: { media: 'sound:conf-onlyperson' } },
            'videoSource',
            { leaveBridge: { destroy: true } },
            'hangup',
          ],
        },
      },
    });
    run = await runFlowOnSimulator(flow);
    await run.clock.advance(5_000);
    expect(calls(run)).toEqual([
      'POST /channels/callee/answer',
      'POST /bridges/ringflow-sales-room',
      'POST /bridges/ringflow-sales-room/addChannel',
      'GET /bridges/ringflow-sales-room', // who is in the room, for the step's result
      'POST /bridges/ringflow-sales-room/play/playback-1',
      'POST /bridges/ringflow-sales-room/videoSource/callee',
      'POST /bridges/ringflow-sales-room/removeChannel',
      'DELETE /bridges/ringflow-sales-room',
      'DELETE /channels/callee',
    ]);
    expect(run.output()?.vars.room).toEqual({
      outcome: 'joined',
      step: 'conference',
      state: 'a',
      bridgeId: 'ringflow-sales-room',
      created: true,
      members: ['callee'],
      count: 1,
      videoSource: '',
    });
  });
});
