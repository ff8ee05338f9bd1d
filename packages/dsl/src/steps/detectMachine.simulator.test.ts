import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import { type FarEnd, type FlowTestCall, testFlow } from '@ringflow/testing';

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

const report = (name: string) => ({
  steps: [
    {
      userEvent: {
        name,
        variables: {
          outcome: { expr: 'vars.amd.outcome' },
          status: { expr: "has(vars.amd.status) ? vars.amd.status : 'none'" },
          cause: { expr: "has(vars.amd.cause) ? vars.amd.cause : 'none'" },
          words: { expr: "has(vars.amd.words) ? string(vars.amd.words) : 'none'" },
          greetingMs: { expr: "has(vars.amd.greetingMs) ? string(vars.amd.greetingMs) : 'none'" },
        },
      },
    },
    'hangup' as const,
  ],
});

/** The call itself is the one answered: detectMachine listens to the caller. */
function ownFlow(detect: Record<string, unknown> = {}) {
  return defineFlow({
    name: 'amd-own',
    start: 'a',
    states: {
      a: { steps: ['answer', { detectMachine: { ...detect, as: 'amd' } }], next: 'done' },
      done: report('Detected'),
    },
  });
}

/** The flow dials the callee (not bridged) and listens to that leg. */
function legFlow(detect: Record<string, unknown> = {}) {
  return defineFlow({
    name: 'amd-leg',
    start: 'a',
    states: {
      a: {
        steps: [
          'answer',
          { dial: { endpoint: 'PJSIP/callee', bridge: false, as: 'leg' } },
          { detectMachine: { channel: { expr: 'vars.leg.channelId' }, ...detect, as: 'amd' } },
        ],
        next: 'done',
      },
      done: report('Detected'),
    },
  });
}

/** The dialplan recipe of docs/transfers.md. */
const AMD_DIALPLAN =
  '[ringflow-amd]\nexten => s,1,AMD()\n same => n,Stasis(${RINGFLOW_AMD_APP})\n same => n,Hangup()\n';

describe('detectMachine on the simulator', () => {
  it('talk: a person says hello and waits: human after the silence that follows', async () => {
    call = await testFlow(ownFlow());
    call.expectAction({
      operation: 'channels.setChannelVar',
      params: { channelId: 'c1', variable: 'TALK_DETECT(set)' },
    });
    await call.wait('300ms');
    await call.talk('1s');
    await call.wait('700ms');
    call.expectState('a'); // 700 ms of silence: not yet
    await call.wait('200ms');
    call.expectUserEvent('Detected', { outcome: 'human', status: 'HUMAN', words: '1' });
  });

  it('talk: a machine with a beep, on a dialled leg: beep once the beep after its greeting is over', async () => {
    call = await testFlow(legFlow(), {
      farEnds: { 'PJSIP/callee': { machine: { greetingMs: 4000, beep: true } } as FarEnd },
    });
    await call.wait('4s'); // answered after 2 s, greeting from 2.5 s: 1.5 s of it heard by now
    call.expectState('a');
    await call.wait('4s'); // the greeting ends at 6.5 s, the beep from 7.1 s to 7.5 s
    call.expectUserEvent('Detected', {
      outcome: 'beep',
      status: 'MACHINE',
      cause: 'LONGGREETING-1500-1500',
      greetingMs: '1500',
    });
    const [detected] = call.expectUserEvent('Detected');
    expect(detected?.at).toBe(7_500);
  });

  it.each([
    { farEnd: { human: { saysMs: 1000 } }, outcome: 'human', status: 'HUMAN' },
    { farEnd: { machine: { greetingMs: 4000, beep: false } }, outcome: 'machine', status: 'MACHINE' },
    { farEnd: 'answer', outcome: 'machine', status: 'MACHINE' },
  ])('talk: a dialled $outcome without beep or words', async ({ farEnd, outcome, status }) => {
    call = await testFlow(legFlow({ beepTimeout: '5s' }), { farEnds: { 'PJSIP/callee': farEnd as FarEnd } });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
    call.expectUserEvent('Detected', { outcome, status });
  });

  it('talk: two stretches of speech that add up past the greeting: machine, counted once', async () => {
    call = await testFlow(ownFlow({ waitForBeep: false }));
    await call.wait('300ms');
    await call.talk('1s');
    await call.wait('300ms');
    await call.talk('1s');
    call.expectUserEvent('Detected', {
      outcome: 'machine',
      cause: 'LONGGREETING-2000-1500',
      greetingMs: '2000',
      words: '2',
    });
  });

  it('talk: silence and short words until the analysis time is over: notSure', async () => {
    call = await testFlow(ownFlow({ totalAnalysisTime: '2s', initialSilence: '5s' }));
    await call.wait('3s');
    call.expectUserEvent('Detected', { outcome: 'notSure', status: 'NOTSURE', cause: 'TOOLONG-2000' });
  });

  it('server: AMD() in the dialplan, back in the application with AMDSTATUS and AMDCAUSE', async () => {
    call = await testFlow(legFlow({ detector: 'server', waitForBeep: false }), {
      dialplan: AMD_DIALPLAN,
      farEnds: { 'PJSIP/callee': { human: { saysMs: 1000 } } as FarEnd },
    });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
    call.expectAction({
      operation: 'channels.continueInDialplan',
      params: { context: 'ringflow-amd', extension: 's', priority: 1 },
    });
    call.expectUserEvent('Detected', { outcome: 'human', status: 'HUMAN', cause: 'HUMAN-800-800' });
  });

  it('server: a machine, then its beep heard by talk detection', async () => {
    call = await testFlow(legFlow({ detector: 'server' }), {
      dialplan: AMD_DIALPLAN,
      farEnds: { 'PJSIP/callee': { machine: { greetingMs: 4000, beep: true } } as FarEnd },
    });
    await call.wait('10s');
    call.expectUserEvent('Detected', { outcome: 'beep', status: 'MACHINE', cause: 'LONGGREETING-1500-1500' });
  });

  it('server: a dialplan place without AMD() fails the step, saying so', async () => {
    call = await testFlow(legFlow({ detector: 'server', dialplan: { context: 'nothing-here' } }), {
      dialplan: '[nothing-here]\nexten => s,1,Stasis(${RINGFLOW_AMD_APP})\n',
      farEnds: { 'PJSIP/callee': 'answer' },
    });
    await call.expectEnd({ status: 'failed', within: '1m' });
    expect(call.end()?.error?.message).toMatch(/AMD\(\) gave AMDSTATUS ''/);
  });
});

describe('detectMachine validation', () => {
  it("detector: server on the call's own channel, and dialplan with the talk detector, are errors at their place", async () => {
    const { parseFlow } = await import('../parseFlow.ts');
    const text = (step: string) =>
      `name: t\nstart: a\nstates:\n  a:\n    steps:\n      - answer\n      - detectMachine:\n${step}      - hangup\n`;
    const problems = (step: string) =>
      parseFlow(text(step), 'amd.yaml').diagnostics.map(
        (d) => `${d.line}:${d.column} ${d.code} ${d.message}`,
      );
    expect(problems('          detector: server\n')).toEqual([
      expect.stringMatching(/^8:21 RF103 detector: server sends the channel into the dialplan/),
    ]);
    expect(problems('          dialplan: { context: amd }\n')).toEqual([
      expect.stringMatching(/^8:11 RF104 dialplan applies to detector: server only/),
    ]);
    expect(problems('          detector: server\n          channel: PJSIP-leg-id\n')).toEqual([]);
  });
});
