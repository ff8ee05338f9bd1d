import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import { type CallScenario, type FlowTestCall, testCalls, testFlow } from '@ringflow/testing';

let call: FlowTestCall | undefined;
let scenario: CallScenario | undefined;
afterEach(async () => {
  await call?.close();
  await scenario?.close();
  call = undefined;
  scenario = undefined;
});

/** Every outcome of the transfer goes to a state that reports it and hangs up. */
function transferFlow(transfer: Record<string, unknown>) {
  const report = (name: string) => ({
    steps: [
      {
        userEvent: {
          name,
          variables: {
            outcome: { expr: 'vars.t.outcome' },
            reason: { expr: "has(vars.t.reason) ? vars.t.reason : 'none'" },
            digit: { expr: "has(vars.t.digit) ? vars.t.digit : 'none'" },
            to: { expr: "has(vars.t.to) ? vars.t.to : 'none'" },
          },
        },
      },
      'hangup' as const,
    ],
  });
  return defineFlow({
    name: 'transferrer',
    start: 't',
    states: {
      t: {
        steps: [
          'answer',
          {
            transfer: {
              ...transfer,
              as: 't',
              on: { declined: 'back', busy: 'back', noAnswer: 'back', failed: 'failed' },
            },
          },
        ],
        next: 'talked',
      },
      talked: report('Talked'),
      back: report('Back'),
      failed: report('Failed'),
    },
  });
}

/** The id of the target's channel (from the flow's originate request). */
function target(c: FlowTestCall): string {
  const [originate] = c.expectAction({ operation: 'channels.originateWithId' });
  return String(originate?.params.channelId);
}

describe('transfer on the simulator', () => {
  it('blind to an endpoint: the caller is redirected and the flow ends transferred', async () => {
    call = await testFlow(transferFlow({ endpoint: 'PJSIP/sales' }));
    const end = await call.expectEnd({ status: 'transferred', by: 'flow', within: '2s' });
    expect(end.error).toBeUndefined();
    call.expectAction({
      operation: 'channels.redirect',
      params: { channelId: 'c1', endpoint: 'PJSIP/sales' },
    });
    // The caller's phone was told to go there (a REFER), and the flow did not hang it up itself.
    expect(call.simulator.driver.outbound).toContainEqual({
      kind: 'redirect',
      detail: { channelId: 'c1', endpoint: 'PJSIP/sales' },
    });
    call.expectNoAction('channels.hangup');
    call.expectNotVisited('talked', 'back', 'failed');
  });

  it('blind into the dialplan: the call continues there and the flow ends transferred', async () => {
    call = await testFlow(transferFlow({ context: 'support', extension: '200', priority: 1 }), {
      dialplan: '[support]\nexten => 200,1,Wait(30)\n same => n,Hangup()\n',
    });
    await call.expectEnd({ status: 'continued', within: '2s' });
    call.expectAction({
      operation: 'channels.continueInDialplan',
      params: { channelId: 'c1', context: 'support', extension: '200', priority: 1 },
    });
    call.expectNoAction('channels.hangup');
    const live = await call.simulator.handle({ method: 'GET', path: '/channels/c1', query: {} });
    expect((live.body as { dialplan: { context: string; exten: string } }).dialplan).toMatchObject({
      context: 'support',
      exten: '200',
    });
  });

  it('attended, accepted by key: music for the caller, the announcement to the target alone, then bridged', async () => {
    call = await testFlow(
      transferFlow({
        endpoint: 'PJSIP/operator',
        attended: true,
        mohClass: 'jazz',
        announce: { media: 'sound:hello-world' },
        confirm: { key: '1' },
      }),
      { farEnds: { 'PJSIP/operator': { answerAfterMs: 3_000 } } },
    );
    call.expectAction({ operation: 'channels.startMoh', params: { channelId: 'c1', mohClass: 'jazz' } });
    const peer = target(call);
    await call.wait('3s');
    call.expectAction({
      operation: 'channels.play',
      params: { channelId: peer, media: 'sound:hello-world' },
    });
    call.expectNoAction({ operation: 'channels.play', params: { channelId: 'c1' } });
    await call.wait('5s'); // the announcement is over; the target has not pressed anything yet
    call.expectNoAction('bridges.createWithId');
    call.expectNoAction('channels.stopMoh');
    call.simulator.driver.pressDigits(peer, '1');
    await call.wait('1s');
    call.expectAction({ operation: 'channels.stopMoh', params: { channelId: 'c1' } }, { times: 1 });
    const [added] = call.expectAction({ operation: 'bridges.addChannel', params: { channel: `c1,${peer}` } });
    const bridgeId = String(added?.params.bridgeId);
    const bridge = await call.simulator.handle({ method: 'GET', path: `/bridges/${bridgeId}`, query: {} });
    expect((bridge.body as { channels: string[] }).channels.sort()).toEqual(['c1', peer].sort());
    await call.wait('1m');
    call.expectState('t'); // the step stays to watch while they talk
    await call.hangUpFarEnd('PJSIP/operator');
    call.expectUserEvent('Talked', { outcome: 'completed' });
    await call.expectEnd({ status: 'completed', by: 'flow' });
    call.expectAction({ operation: 'bridges.destroy', params: { bridgeId } }, { times: 1 });
  });

  it('attended, stepping out: bridged, the flow runs nothing more; the target hangs up, the caller follows', async () => {
    call = await testFlow(transferFlow({ endpoint: 'PJSIP/operator', attended: true, stepOut: true }), {
      farEnds: { 'PJSIP/operator': 'answer' },
    });
    const peer = target(call);
    await call.wait('3s');
    const [added] = call.expectAction({ operation: 'bridges.addChannel', params: { channel: `c1,${peer}` } });
    const bridgeId = String(added?.params.bridgeId);
    await call.wait('10m'); // they talk: the flow watches nothing but the pair
    expect(call.end()).toBeUndefined();
    call.expectNotVisited('talked', 'back');
    await call.hangUpFarEnd('PJSIP/operator');
    await call.expectEnd({ status: 'transferred', by: 'flow', within: '11m' });
    // The caller is not left connected to nothing; the bridge does not outlive them.
    call.expectAction({ operation: 'channels.hangup', params: { channelId: 'c1' } }, { times: 1 });
    call.expectAction({ operation: 'bridges.destroy', params: { bridgeId } }, { times: 1 });
    call.expectNotVisited('talked', 'back', 'failed');
  });

  it('attended, stepping out: the caller hangs up first, the target is hung up; no hangup handler runs', async () => {
    const flow = defineFlow({
      name: 'stepper',
      start: 't',
      on: { hangup: { goto: 'handler' } },
      states: {
        handler: { steps: [{ userEvent: { name: 'HangupHandler' } }] },
        t: {
          steps: [
            'answer',
            { transfer: { endpoint: 'PJSIP/operator', attended: true, stepOut: true, as: 't' } },
            { userEvent: { name: 'After' } },
          ],
        },
      },
    });
    call = await testFlow(flow, { farEnds: { 'PJSIP/operator': 'answer' } });
    const peer = target(call);
    await call.wait('3s');
    const [added] = call.expectAction({ operation: 'bridges.addChannel', params: { channel: `c1,${peer}` } });
    await call.wait('1m');
    await call.hangUp();
    await call.expectEnd({ status: 'transferred', by: 'flow', within: '2m' });
    call.expectAction({ operation: 'channels.hangup', params: { channelId: peer } }, { times: 1 });
    call.expectNoAction({ operation: 'channels.hangup', params: { channelId: 'c1' } });
    await call.wait('1s');
    // Nothing is left on the server: neither the target nor the bridge of the two.
    const gone = (path: string) => call!.simulator.handle({ method: 'GET', path, query: {} });
    expect((await gone(`/channels/${peer}`)).status).toBe(404);
    expect((await gone(`/bridges/${String(added?.params.bridgeId)}`)).status).toBe(404);
    // Neither the steps after the transfer nor the flow's hangup handler ran.
    call.expectNoAction('events.userEvent');
  });

  it('attended without confirm: answering accepts', async () => {
    call = await testFlow(transferFlow({ endpoint: 'PJSIP/operator', attended: true }), {
      farEnds: { 'PJSIP/operator': 'answer' },
    });
    const peer = target(call);
    await call.wait('3s');
    call.expectAction({ operation: 'bridges.addChannel', params: { channel: `c1,${peer}` } }, { times: 1 });
  });

  it.each([
    { how: 'another key', press: '2', reason: 'key', digit: '2' },
    { how: 'no key in time', press: undefined, reason: 'timeout', digit: 'none' },
  ])(
    'attended, declined by $how: the target is hung up, the caller is back',
    async ({ press, reason, digit }) => {
      call = await testFlow(
        transferFlow({ endpoint: 'PJSIP/operator', attended: true, confirm: { timeout: '5s' } }),
        { farEnds: { 'PJSIP/operator': 'answer' } },
      );
      const peer = target(call);
      await call.wait('2s');
      if (press) call.simulator.driver.pressDigits(peer, press);
      await call.wait('6s');
      call.expectUserEvent('Back', { outcome: 'declined', reason, digit });
      call.expectAction({ operation: 'channels.hangup', params: { channelId: peer } }, { times: 1 });
      call.expectAction({ operation: 'channels.stopMoh', params: { channelId: 'c1' } }, { times: 1 });
      call.expectNoAction('bridges.createWithId');
    },
  );

  it('attended, the target hangs up before accepting: declined (hungUp)', async () => {
    call = await testFlow(transferFlow({ endpoint: 'PJSIP/operator', attended: true, confirm: {} }), {
      farEnds: { 'PJSIP/operator': 'answer' },
    });
    await call.wait('3s');
    await call.hangUpFarEnd('PJSIP/operator');
    call.expectUserEvent('Back', { outcome: 'declined', reason: 'hungUp' });
    call.expectNoAction('bridges.createWithId');
  });

  it.each([
    { farEnd: 'busy', outcome: 'busy' },
    { farEnd: 'noAnswer', outcome: 'noAnswer' },
  ] as const)('attended, target $farEnd: the caller is back with $outcome', async ({ farEnd, outcome }) => {
    call = await testFlow(transferFlow({ endpoint: 'PJSIP/operator', attended: true, timeout: '10s' }), {
      farEnds: { 'PJSIP/operator': farEnd },
    });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
    call.expectStates(['t', 'back']);
    call.expectUserEvent('Back', { outcome });
    call.expectAction({ operation: 'channels.stopMoh', params: { channelId: 'c1' } }, { times: 1 });
  });

  it('attended, the caller hangs up while the target rings: the target is hung up too', async () => {
    call = await testFlow(transferFlow({ endpoint: 'PJSIP/operator', attended: true }), {
      farEnds: { 'PJSIP/operator': 'noAnswer' },
    });
    const peer = target(call);
    await call.wait('2s');
    await call.hangUp();
    await call.expectEnd({ status: 'hungUp', by: 'caller' });
    call.expectAction({ operation: 'channels.hangup', params: { channelId: peer } }, { times: 1 });
  });
});

describe('transfers made by phones, followed by the flow', () => {
  it("a phone's blind transfer: the flow goes on on the channel that replaced its own", async () => {
    const flow = defineFlow({
      name: 'agent-phone',
      start: 'd',
      vars: { xfer: 'none' },
      on: { transferred: { set: { xfer: { expr: 'event.exten' } } } },
      states: {
        d: {
          steps: [
            'answer',
            { dial: { endpoint: 'PJSIP/customer' } },
            {
              userEvent: {
                name: 'Talked',
                variables: { xfer: { expr: 'vars.xfer' }, channel: { expr: 'call.channelId' } },
              },
            },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow, {
      farEnds: { 'PJSIP/customer': 'answer' },
      dialplan: '[default]\nexten => 200,1,Wait(120)\n',
    });
    await call.wait('3s'); // answered and bridged
    // The caller's phone (an agent) transfers the customer to 200: a Local pair takes its place.
    const replacement = call.simulator.driver.blindTransfer('c1', '200', 'default');
    await call.wait('1s');
    expect(call.end()).toBeUndefined(); // the caller's channel hung up; the call goes on
    expect(call.session?.channelId).toBe(replacement);
    await call.wait('30s');
    await call.hangUpFarEnd('PJSIP/customer');
    call.expectUserEvent('Talked', { xfer: '200', channel: replacement });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
    // The flow's hang-up at the end is for the channel that is the call's now.
    call.expectAction({ operation: 'channels.hangup', params: { channelId: replacement } });
  });

  it("the called party's phone transfers the caller: the dial follows the channel in its place, the call goes on", async () => {
    const flow = defineFlow({
      name: 'desk',
      start: 'd',
      states: {
        d: {
          steps: [
            'answer',
            { dial: { endpoint: 'PJSIP/agent', as: 'leg' } },
            {
              userEvent: {
                name: 'Talked',
                variables: {
                  transferred: { expr: "has(vars.leg.transferred) ? string(vars.leg.transferred) : 'no'" },
                  channel: { expr: 'vars.leg.channelId' },
                },
              },
            },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow, {
      farEnds: { 'PJSIP/agent': 'answer' },
      dialplan: '[default]\nexten => 300,1,Wait(60)\n same => n,Hangup()\n',
    });
    await call.wait('3s'); // the agent answered; the two are bridged
    const agent = target(call);
    const [added] = call.expectAction({
      operation: 'bridges.addChannel',
      params: { channel: `c1,${agent}` },
    });
    const bridgeId = String(added?.params.bridgeId);
    // The agent's phone sends the caller to 300: a Local pair's ;1 half takes the agent's place.
    const replacement = call.simulator.driver.blindTransfer(agent, '300', 'default');
    await call.wait('10s');
    // The caller is still in the call's bridge, now with the half; the flow did not go on.
    expect(call.end()).toBeUndefined();
    call.expectNoAction('events.userEvent');
    call.expectNoAction({ operation: 'bridges.destroy' });
    const bridge = await call.simulator.handle({ method: 'GET', path: `/bridges/${bridgeId}`, query: {} });
    expect((bridge.body as { channels: string[] }).channels.sort()).toEqual(['c1', replacement].sort());
    // 300 hangs up after its minute: the half leaves, the dial is over, the flow goes on.
    await call.wait('1m');
    call.expectUserEvent('Talked', { transferred: 'true', channel: replacement });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '2m' });
  });

  it("a phone's attended transfer joining two calls: each flow goes on on the link's half in its place", async () => {
    // An agent's phone has two calls, each run by the flow: the first with a customer, the second
    // with an expert. It joins them: a Local pair links the two bridges in the agent's places.
    const flow = defineFlow({
      name: 'agent-phone',
      start: 'd',
      inputs: { who: { type: 'string', required: true } },
      vars: { xfer: 'none' },
      on: { transferred: { set: { xfer: { expr: 'event.destination_type' } } } },
      states: {
        d: {
          steps: [
            'answer',
            { dial: { endpoint: { expr: 'input.who' } } },
            {
              userEvent: {
                name: 'Talked',
                variables: { xfer: { expr: 'vars.xfer' }, channel: { expr: 'call.channelId' } },
              },
            },
            'hangup',
          ],
        },
      },
    });
    scenario = await testCalls(flow, {
      calls: {
        first: { inputs: { who: 'PJSIP/customer' } },
        second: { inputs: { who: 'PJSIP/expert' }, at: '1s' },
      },
      farEnds: { 'PJSIP/customer': 'answer', 'PJSIP/expert': 'answer' },
    });
    await scenario.wait('5s'); // both answered and bridged
    const first = scenario.call('first');
    const second = scenario.call('second');
    const { firstLink, secondLink } = scenario.simulator.driver.attendedTransfer(
      first.channelId,
      second.channelId,
    );
    expect(firstLink).toBeDefined();
    await scenario.wait('1s');
    // The agent's channels hung up; the calls go on on the halves that took their places.
    expect(first.session?.channelId).toBe(firstLink);
    expect(second.session?.channelId).toBe(secondLink);
    expect(first.end()).toBeUndefined();
    expect(second.end()).toBeUndefined();
    await scenario.wait('1m');
    await scenario.hangUpFarEnd('PJSIP/customer');
    first.expectUserEvent('Talked', { xfer: 'link', channel: String(firstLink) });
    await first.expectEnd({ status: 'completed', by: 'flow', within: '2m' });
    // The flow's hang-up at the end is for the half that is the call's now.
    first.expectAction({ operation: 'channels.hangup', params: { channelId: String(firstLink) } });
  });
});
