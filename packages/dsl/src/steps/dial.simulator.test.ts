import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import type { FarEnd } from '@ringflow/testing';
import { type FlowTestCall, testFlow } from '@ringflow/testing';

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

/** Every dial outcome goes to a state that reports it (with the result's data) and hangs up. */
function dialFlow(dial: Record<string, unknown>) {
  const report = (name: string) => ({
    steps: [
      {
        userEvent: {
          name,
          variables: {
            outcome: { expr: 'vars.dial.outcome' },
            channelId: { expr: "has(vars.dial.channelId) ? vars.dial.channelId : 'none'" },
            bridgeId: { expr: "has(vars.dial.bridgeId) ? vars.dial.bridgeId : 'none'" },
            cause: { expr: "has(vars.dial.cause) ? string(vars.dial.cause) : 'none'" },
          },
        },
      },
      'hangup' as const,
    ],
  });
  return defineFlow({
    name: 'dialer',
    start: 'd',
    states: {
      d: {
        steps: [
          'answer',
          {
            dial: {
              endpoint: 'PJSIP/bob',
              ...dial,
              as: 'dial',
              on: { busy: 'busy', noAnswer: 'noAnswer', failed: 'failed' },
            },
          },
        ],
        next: 'talked',
      },
      talked: report('Talked'),
      busy: report('Busy'),
      noAnswer: report('NoAnswer'),
      failed: report('Failed'),
    },
  });
}

/** The id of the channel the flow dialled (from its originate request). */
function dialled(c: FlowTestCall): string {
  const [originate] = c.expectAction({ operation: 'channels.originateWithId' });
  return String(originate?.params.channelId);
}

describe('dial on the simulator', () => {
  it('answered: the two calls are bridged; when the called party hangs up the outcome is completed', async () => {
    call = await testFlow(
      dialFlow({ timeout: '20s', callerId: 'Support <100>', variables: { QUEUE: 'sales', LEVEL: 2 } }),
      { farEnds: { 'PJSIP/bob': { answerAfterMs: 4_000 } } },
    );
    call.expectAction({
      operation: 'channels.originateWithId',
      params: {
        endpoint: 'PJSIP/bob',
        app: 'flow-test',
        appArgs: 'dialed',
        timeout: 20,
        callerId: 'Support <100>',
        variables: { QUEUE: 'sales', LEVEL: '2' },
      },
    });
    const peer = dialled(call);
    await call.wait('3900ms');
    call.expectNoAction('bridges.createWithId');
    await call.wait('100ms');
    const [created] = call.expectAction({ operation: 'bridges.createWithId', params: { type: 'mixing' } });
    const bridgeId = String(created?.params.bridgeId);
    call.expectAction({ operation: 'bridges.addChannel', params: { bridgeId, channel: `c1,${peer}` } });
    // Both legs are in the bridge now.
    const bridge = await call.simulator.handle({ method: 'GET', path: `/bridges/${bridgeId}`, query: {} });
    expect((bridge.body as { channels: string[] }).channels.sort()).toEqual(['c1', peer].sort());
    await call.wait('30s');
    call.expectState('d'); // talking as long as they like
    await call.hangUpFarEnd('PJSIP/bob');
    call.expectUserEvent('Talked', { outcome: 'completed', channelId: peer, bridgeId });
    const end = await call.expectEnd({ status: 'completed', by: 'flow' });
    expect(end.at).toBe(34_000);
    // The step's bridge does not outlive it.
    call.expectAction({ operation: 'bridges.destroy', params: { bridgeId } }, { times: 1 });
    call.expectNoAction({ operation: 'channels.hangup', params: { channelId: peer } });
  });

  it('the caller hears a ringback while it rings: ring when dialling starts, stopped at the answer before the bridge', async () => {
    call = await testFlow(dialFlow({ timeout: '20s' }), {
      farEnds: { 'PJSIP/bob': { answerAfterMs: 4_000 } },
    });
    const order = () => call!.actions().map((a) => a.operation);
    call.expectAction({ operation: 'channels.ring', params: { channelId: 'c1' } }, { times: 1 });
    call.expectNoAction('channels.ringStop');
    await call.wait('4s');
    call.expectAction({ operation: 'channels.ringStop', params: { channelId: 'c1' } }, { times: 1 });
    const ops = order();
    expect(ops.indexOf('channels.ring')).toBeLessThan(ops.indexOf('channels.ringStop'));
    expect(ops.indexOf('channels.ringStop')).toBeLessThan(ops.indexOf('bridges.addChannel'));
  });

  it.each([
    { ringback: 'moh', start: 'channels.startMoh', stop: 'channels.stopMoh' },
    { ringback: 'none', start: undefined, stop: undefined },
  ] as const)(
    'ringback: $ringback while it rings, stopped when the far end is busy',
    async ({ ringback, start, stop }) => {
      call = await testFlow(dialFlow({ ringback, ...(ringback === 'moh' ? { mohClass: 'jazz' } : {}) }), {
        farEnds: { 'PJSIP/bob': 'busy' },
      });
      await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
      call.expectNoAction('channels.ring');
      if (start && stop) {
        call.expectAction({ operation: start, params: { channelId: 'c1', mohClass: 'jazz' } }, { times: 1 });
        call.expectAction({ operation: stop, params: { channelId: 'c1' } }, { times: 1 });
      } else {
        call.expectNoAction('channels.startMoh');
        call.expectNoAction('channels.ringStop');
      }
    },
  );

  it('a caller who hangs up while it rings: the call placed is hung up and the flow ends hungUp', async () => {
    call = await testFlow(dialFlow({ timeout: '20s' }), { farEnds: { 'PJSIP/bob': 'noAnswer' } });
    await call.wait('2s');
    await call.hangUp();
    const end = await call.expectEnd({ status: 'hungUp' });
    expect(end.error).toBeUndefined();
    call.expectAction({ operation: 'channels.hangup', params: { channelId: /^channel-/ } }, { times: 1 });
  });

  it.each([
    { farEnd: 'busy', state: 'busy', outcome: 'busy', cause: '17', at: 0 },
    { farEnd: 'unreachable', state: 'failed', outcome: 'failed', cause: '27', at: 0 },
    { farEnd: 'noAnswer', state: 'noAnswer', outcome: 'noAnswer', cause: /^(19|21|16|18)$/, at: 15_000 },
  ] as const)(
    'far end $farEnd: outcome $outcome with the hangup cause',
    async ({ farEnd, state, outcome, cause, at }) => {
      call = await testFlow(dialFlow({ timeout: '15s' }), {
        farEnds: { 'PJSIP/bob': farEnd as FarEnd },
      });
      const end = await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
      call.expectStates(['d', state]);
      call.expectUserEvent(outcome === 'busy' ? 'Busy' : outcome === 'failed' ? 'Failed' : 'NoAnswer', {
        outcome,
        cause,
      });
      expect(end.at).toBe(at);
      // No bridge for a call that was never answered, and no hangup of a call already gone.
      call.expectNoAction('bridges.createWithId');
      if (farEnd !== 'noAnswer')
        call.expectNoAction({ operation: 'channels.hangup', params: { channelId: /^channel-/ } });
    },
  );

  it('bridge: false hands the answered call to the flow (outcome answered with its channel)', async () => {
    const flow = defineFlow({
      name: 'screen',
      start: 'd',
      states: {
        d: {
          steps: [
            'answer',
            { dial: { endpoint: { expr: "'PJSIP/' + 'bob'" }, bridge: false, as: 'leg' } },
            { userEvent: { name: 'Answered', variables: { leg: { expr: 'vars.leg.channelId' } } } },
            { wait: { duration: '5s' } },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow, { farEnds: { 'PJSIP/bob': 'answer' } });
    const peer = dialled(call);
    await call.wait('2s');
    call.expectUserEvent('Answered', { leg: peer });
    call.expectNoAction('bridges.createWithId');
    // The answered call is the flow's now: leaving the step does not hang it up.
    call.expectNoAction({ operation: 'channels.hangup', params: { channelId: peer } });
    const live = await call.simulator.handle({ method: 'GET', path: `/channels/${peer}`, query: {} });
    expect((live.body as { state: string }).state).toBe('Up');
    await call.expectEnd({ status: 'completed', by: 'flow', within: '10s' });
  });

  it('announce plays to the called party alone on answer, then bridges the two calls', async () => {
    call = await testFlow(
      dialFlow({ announce: { media: ['sound:hello-world', 'digits:42'] }, timeout: '20s' }),
      { farEnds: { 'PJSIP/bob': 'answer' } },
    );
    const peer = dialled(call);
    await call.wait('2s'); // answered
    const [played] = call.expectAction(
      { operation: 'channels.play', params: { channelId: peer, media: 'sound:hello-world,digits:42' } },
      { times: 1 },
    );
    // Only the called party hears it: nothing is played to the caller, nobody is bridged yet.
    call.expectNoAction({ operation: 'channels.play', params: { channelId: 'c1' } });
    call.expectNoAction('bridges.createWithId');
    await call.wait('10s');
    const [added] = call.expectAction({ operation: 'bridges.addChannel', params: { channel: `c1,${peer}` } });
    // Bridged when the announcement finished, not before.
    expect(added?.at).toBeGreaterThan(played?.at ?? Number.POSITIVE_INFINITY);
    const finished = call
      .events('PlaybackFinished')
      .find((e) => (e.event.playback as { id?: string } | undefined)?.id === played?.params.playbackId);
    expect(finished).toBeDefined();
    expect(added?.at).toBeGreaterThanOrEqual(finished?.at ?? Number.POSITIVE_INFINITY);
    await call.hangUpFarEnd('PJSIP/bob');
    call.expectUserEvent('Talked', { outcome: 'completed', channelId: peer });
    await call.expectEnd({ status: 'completed', by: 'flow' });
  });

  it('announce: the called party hanging up during it ends the step, unbridged', async () => {
    call = await testFlow(dialFlow({ announce: { media: 'sound:tt-monkeys' } }), {
      farEnds: { 'PJSIP/bob': 'answer' },
    });
    const peer = dialled(call);
    await call.wait('2s');
    call.expectAction({ operation: 'channels.play', params: { channelId: peer } }, { times: 1 });
    await call.hangUpFarEnd('PJSIP/bob');
    await call.expectEnd({ status: 'completed', by: 'flow', within: '5s' });
    call.expectUserEvent('Talked', { outcome: 'completed', channelId: peer });
    call.expectNoAction('bridges.createWithId');
  });

  it('a list of far-end behaviours gives one per successive call: busy, then answered', async () => {
    const flow = defineFlow({
      name: 'redial',
      start: 'd',
      vars: { tries: 0 },
      states: {
        d: {
          steps: [
            'answer',
            { set: { tries: { expr: 'vars.tries + 1' } } },
            { dial: { endpoint: 'PJSIP/bob', on: { busy: { goto: 'again', if: 'vars.tries < 4' } } } },
            { userEvent: { name: 'Done', variables: { tries: { expr: 'vars.tries' } } } },
            'hangup',
          ],
        },
        again: { steps: [{ wait: { duration: '1s' } }], next: 'd' },
      },
    });
    call = await testFlow(flow, { farEnds: { 'PJSIP/bob': ['busy', 'busy', { answerAfterMs: 3_000 }] } });
    await call.wait('10s');
    // Two busy attempts, then the third is answered after 3 s; later calls would answer too.
    call.expectAction({ operation: 'channels.originateWithId' }, { times: 3 });
    call.expectAction({ operation: 'bridges.addChannel' }, { times: 1 });
    await call.hangUpFarEnd('PJSIP/bob');
    call.expectUserEvent('Done', { tries: 3 });
    await call.expectEnd({ status: 'completed', by: 'flow' });
  });

  it('the caller hanging up while it rings hangs the dialled call up too', async () => {
    call = await testFlow(dialFlow({}), { farEnds: { 'PJSIP/bob': 'noAnswer' } });
    const peer = dialled(call);
    await call.wait('5s');
    await call.hangUp();
    await call.expectEnd({ status: 'hungUp', by: 'caller' });
    const [hangup] = call.expectAction({ operation: 'channels.hangup', params: { channelId: peer } });
    expect(hangup?.at).toBe(5_000);
    expect(hangup?.status).toBe(204);
    const gone = await call.simulator.handle({ method: 'GET', path: `/channels/${peer}`, query: {} });
    expect(gone.status).toBe(404);
  });

  it('an endpoint the server refuses fails the step with the status', async () => {
    call = await testFlow(dialFlow({ endpoint: 'nonsense' }));
    await call.expectEnd({ status: 'completed', by: 'flow', within: '1s' });
    call.expectVisited('failed');
    const [originate] = call.expectAction({ operation: 'channels.originateWithId' });
    expect(originate?.status).toBeGreaterThanOrEqual(400);
    call.expectUserEvent('Failed', { outcome: 'failed' });
    // Nothing was placed, so nothing is hung up.
    call.expectNoAction({ operation: 'channels.hangup', params: { channelId: /^channel-/ } });
  });

  it('an endpoint the server does not have fails at once, as on a real server (500 Allocation failed)', async () => {
    call = await testFlow(dialFlow({}), { farEnds: { 'PJSIP/alice': 'answer' } });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '1s' });
    call.expectVisited('failed');
    const [originate] = call.expectAction({
      operation: 'channels.originateWithId',
      params: { endpoint: 'PJSIP/bob' },
    });
    expect(originate?.status).toBe(500);
    call.expectUserEvent('Failed', { outcome: 'failed' });
  });
});

describe('originate on the simulator', () => {
  it('places a call into the dialplan without waiting for it (done with its channel id)', async () => {
    const flow = defineFlow({
      name: 'callback',
      start: 'a',
      states: {
        a: {
          steps: [
            'answer',
            {
              originate: {
                endpoint: 'PJSIP/200',
                context: 'callbacks',
                extension: { expr: 'call.caller.number' },
                priority: 1,
                callerId: 'Callback <300>',
                timeout: '25s',
                variables: { ORIGIN: { expr: 'call.channelId' } },
                as: 'placed',
              },
            },
            { userEvent: { name: 'Placed', variables: { channel: { expr: 'vars.placed.channelId' } } } },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow, {
      caller: '5550123',
      farEnds: { 'PJSIP/200': 'answer' },
      dialplan:
        '[callbacks]\nexten => _X.,1,UserEvent(CalledBack,number: ${EXTEN},origin: ${ORIGIN})\n same => n,Wait(10)\n same => n,Hangup()\n',
    });
    const [originate] = call.expectAction({
      operation: 'channels.originateWithId',
      params: {
        endpoint: 'PJSIP/200',
        context: 'callbacks',
        extension: '5550123',
        priority: 1,
        callerId: 'Callback <300>',
        timeout: 25,
        variables: { ORIGIN: 'c1' },
      },
    });
    expect(originate?.params.app).toBeUndefined();
    const placed = String(originate?.params.channelId);
    // The step does not wait for the answer: the flow has already moved on and ended.
    call.expectUserEvent('Placed', { channel: placed });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '1s' });
    // The placed call lives on: answered after 2 s, it runs the dialplan.
    const seen: string[] = [];
    call.simulator.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent') seen.push(JSON.stringify((e as { userevent?: unknown }).userevent));
    });
    await call.wait('3s');
    expect(seen).toEqual([JSON.stringify({ eventname: 'CalledBack', number: '5550123', origin: 'c1' })]);
  });

  it('into an application, by label; a refused request is the failed outcome', async () => {
    const flow = defineFlow({
      name: 'notify',
      start: 'a',
      states: {
        a: {
          steps: [
            { originate: { endpoint: 'PJSIP/200', app: 'other-app' } },
            { originate: { endpoint: 'PJSIP/201', context: 'callbacks', extension: 's', label: 'start' } },
            { originate: { endpoint: 'nonsense', context: 'callbacks', extension: 's', as: 'bad' } },
            'hangup',
          ],
        },
        oops: {
          steps: [
            { userEvent: { name: 'Oops', variables: { status: { expr: 'string(vars.bad.status)' } } } },
            'hangup',
          ],
        },
      },
      on: { error: 'oops' },
    });
    call = await testFlow(flow, {
      farEnds: { 'PJSIP/200': 'answer', 'PJSIP/201': 'answer' },
      dialplan: '[callbacks]\nexten => s,1(start),Wait(1)\n',
    });
    // The flow's error handler took over the refused originate: not a plain success.
    const end = await call.expectEnd({ status: 'recovered', by: 'flow', within: '1s' });
    expect(end.error).toMatchObject({
      step: 'originate',
      status: 400,
      operation: 'channels.originateWithId',
    });
    expect(call.failures()).toMatchObject([
      {
        step: 'originate',
        state: 'a',
        index: 2,
        status: 400,
        next: "the flow's on.error: oops",
        unhandled: true,
      },
    ]);
    call.expectAction({
      operation: 'channels.originateWithId',
      params: { endpoint: 'PJSIP/200', app: 'other-app' },
    });
    call.expectAction({
      operation: 'channels.originateWithId',
      params: { endpoint: 'PJSIP/201', context: 'callbacks', extension: 's', label: 'start' },
    });
    const [bad] = call.expectAction({
      operation: 'channels.originateWithId',
      params: { endpoint: 'nonsense' },
    });
    expect(bad?.status).toBe(400);
    call.expectUserEvent('Oops', { status: '400' });
    call.expectStates(['a', 'oops']);
  });

  describe('ring groups', () => {
    const originated = (c: FlowTestCall) =>
      c
        .actions()
        .filter((a) => a.operation === 'channels.originateWithId')
        .map((a) => String(a.params.endpoint));

    it('all at once: every endpoint rings; the first to answer is bridged, the others are hung up', async () => {
      call = await testFlow(
        dialFlow({ endpoint: ['PJSIP/bob', 'PJSIP/carol', 'PJSIP/dave'], timeout: '20s', as: 'dial' }),
        {
          farEnds: { 'PJSIP/bob': 'noAnswer', 'PJSIP/carol': { answerAfterMs: 3_000 }, 'PJSIP/dave': 'busy' },
        },
      );
      expect(originated(call)).toEqual(['PJSIP/bob', 'PJSIP/carol', 'PJSIP/dave']);
      await call.wait('3s');
      const [bob = '', carol = ''] = call
        .actions()
        .filter((a) => a.operation === 'channels.originateWithId')
        .map((a) => String(a.params.channelId));
      // Bob still rang: he is hung up; Dave was busy and is gone already.
      call.expectAction({ operation: 'channels.hangup', params: { channelId: bob } }, { times: 1 });
      call.expectAction({ operation: 'bridges.addChannel', params: { channel: `c1,${carol}` } });
      await call.wait('10s');
      await call.hangUpFarEnd('PJSIP/carol');
      call.expectUserEvent('Talked', { outcome: 'completed', channelId: carol });
      const end = await call.expectEnd({ status: 'completed', by: 'flow' });
      expect(end.vars?.dial).toMatchObject({
        outcome: 'completed',
        endpoint: 'PJSIP/carol',
        channelId: carol,
      });
    });

    it.each([
      { group: { 'PJSIP/bob': 'busy', 'PJSIP/carol': 'busy' }, outcome: 'busy', event: 'Busy' },
      { group: { 'PJSIP/bob': 'busy', 'PJSIP/carol': 'noAnswer' }, outcome: 'noAnswer', event: 'NoAnswer' },
      {
        group: { 'PJSIP/bob': 'unreachable', 'PJSIP/carol': 'unreachable' },
        outcome: 'failed',
        event: 'Failed',
      },
    ] as const)('all at once, nobody answers ($group): $outcome', async ({ group, outcome, event }) => {
      call = await testFlow(dialFlow({ endpoint: ['PJSIP/bob', 'PJSIP/carol'], timeout: '10s' }), {
        farEnds: group,
      });
      await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
      call.expectUserEvent(event, { outcome });
      call.expectNoAction('bridges.createWithId');
    });

    it('all at once: an endpoint the server cannot call does not stop the others', async () => {
      call = await testFlow(dialFlow({ endpoint: ['PJSIP/nobody', 'PJSIP/carol'], timeout: '10s' }), {
        farEnds: { 'PJSIP/carol': { answerAfterMs: 2_000 } },
      });
      await call.wait('2s');
      call.expectAction('bridges.addChannel');
      await call.hangUp();
      await call.expectEnd({ status: 'hungUp' });
    });

    it('all at once: no endpoint can be called: failed with the reason', async () => {
      call = await testFlow(dialFlow({ endpoint: ['PJSIP/nobody', 'PJSIP/none'] }), {});
      await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
      call.expectUserEvent('Failed', { outcome: 'failed' });
    });

    it('one after another: each endpoint rings for ringTimeout, then the next; the ringback goes on throughout', async () => {
      call = await testFlow(
        dialFlow({
          endpoint: ['PJSIP/bob', 'PJSIP/dave', 'PJSIP/carol'],
          strategy: 'sequential',
          ringTimeout: '5s',
          as: 'dial',
        }),
        {
          farEnds: { 'PJSIP/bob': 'noAnswer', 'PJSIP/dave': 'busy', 'PJSIP/carol': { answerAfterMs: 2_000 } },
        },
      );
      expect(originated(call)).toEqual(['PJSIP/bob']);
      call.expectAction({ operation: 'channels.originateWithId', params: { timeout: 5 } });
      await call.wait('5s');
      expect(originated(call)).toEqual(['PJSIP/bob', 'PJSIP/dave', 'PJSIP/carol']);
      await call.wait('2s');
      call.expectAction('bridges.addChannel');
      call.expectAction('channels.ring', { times: 1 });
      call.expectAction('channels.ringStop', { times: 1 });
      await call.hangUpFarEnd('PJSIP/carol');
      const end = await call.expectEnd({ status: 'completed', by: 'flow' });
      expect(end.vars?.dial).toMatchObject({ outcome: 'completed', endpoint: 'PJSIP/carol' });
    });

    it('one after another, nobody answers: noAnswer once the last one rang out', async () => {
      call = await testFlow(
        dialFlow({ endpoint: ['PJSIP/bob', 'PJSIP/carol'], strategy: 'sequential', ringTimeout: '4s' }),
        { farEnds: { 'PJSIP/bob': 'noAnswer', 'PJSIP/carol': 'noAnswer' } },
      );
      const end = await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
      expect(end.at).toBe(8_000);
      call.expectUserEvent('NoAnswer', { outcome: 'noAnswer' });
      expect(originated(call)).toEqual(['PJSIP/bob', 'PJSIP/carol']);
    });
  });
});
