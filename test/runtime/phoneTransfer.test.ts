import { VirtualClock } from '@ringflow/client';
import { type CallEnded, type CallInput, callActors } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { inProcessApp } from './harness.ts';

/** Answers, waits 5 s (the phone transfers meanwhile), plays a beep on the call's channel, hangs up. */
const answerWaitBeep = setup({ types: { input: {} as CallInput }, actors: callActors }).createMachine({
  initial: 'answering',
  states: {
    answering: { invoke: { src: 'answer', onDone: 'waiting' } },
    waiting: { after: { 5000: 'beeping' } },
    beeping: { invoke: { src: 'play', input: { media: 'sound:beep' }, onDone: 'leaving' } },
    leaving: { invoke: { src: 'hangup', onDone: 'done' } },
    done: { type: 'final' },
  },
});

describe("a phone's blind transfer, followed by the call's session", () => {
  it("the channel that replaced the call's own is the call's: its actors act on it, the call ends with it", async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({
      clock,
      dialplan: { text: '[default]\nexten => 200,1,Wait(120)\n' },
    });
    const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
      apps: ['desk'],
      call: answerWaitBeep,
    });
    const ended: CallEnded[] = [];
    app.callEnded$.subscribe((e) => ended.push(e));
    await app.start();
    const agent = simulator.driver.placeCall({ channelId: 'agent-1', from: '201', app: 'desk' });
    const customer = simulator.driver.placeCall({ channelId: 'customer-1', from: '5551234', app: 'desk' });
    await clock.advance(100);
    // The two are talking in a bridge (made by someone else); the agent's phone transfers the customer.
    await simulator.handle({ method: 'POST', path: '/bridges/desk-bridge', query: { type: 'mixing' } });
    await simulator.handle({
      method: 'POST',
      path: '/bridges/desk-bridge/addChannel',
      query: { channel: `${agent},${customer}` },
    });
    await clock.advance(100);
    const replacement = simulator.driver.blindTransfer(agent, '200', 'default');
    await clock.advance(1_000);
    expect(ended.map((e) => e.callId)).not.toContain(agent); // its channel hung up; the call goes on
    await clock.advance(10_000);
    const plays = requests.filter((r) => r.method === 'POST' && /\/play/.test(r.path));
    expect(plays.map((r) => r.path)).toContain(`/channels/${replacement}/play/playback-1`);
    expect(requests.some((r) => r.method === 'DELETE' && r.path === `/channels/${replacement}`)).toBe(true);
    // The call's record, log and metrics tell the transfer.
    expect(ended.find((e) => e.callId === agent)).toMatchObject({ outcome: 'completed', transfers: 1 });
    expect(app.metrics.callsTransferred.sum({ by: 'phone' })).toBe(1);
    await app.stop();
  });

  it("an attended transfer linking two bridges: the call follows the link's half that took its place", async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock });
    const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
      apps: ['desk'],
      call: answerWaitBeep,
    });
    const ended: CallEnded[] = [];
    app.callEnded$.subscribe((e) => ended.push(e));
    await app.start();
    const [agent, customer, agentSecond, expert] = ['a1', 'c1', 'a2', 'x1'].map((id, i) =>
      simulator.driver.placeCall({ channelId: id, from: String(201 + i), app: 'desk' }),
    ) as [string, string, string, string];
    await clock.advance(100);
    for (const [bridge, members] of [
      ['first', `${agent},${customer}`],
      ['second', `${agentSecond},${expert}`],
    ] as const) {
      await simulator.handle({ method: 'POST', path: `/bridges/${bridge}`, query: { type: 'mixing' } });
      await simulator.handle({
        method: 'POST',
        path: `/bridges/${bridge}/addChannel`,
        query: { channel: members },
      });
    }
    await clock.advance(100);
    const { firstLink } = simulator.driver.attendedTransfer(agent, agentSecond);
    await clock.advance(10_000);
    expect(firstLink).toBeDefined();
    const plays = requests.filter((r) => r.method === 'POST' && /\/play/.test(r.path)).map((r) => r.path);
    expect(plays).toContain(`/channels/${firstLink}/play/playback-1`);
    expect(ended.find((e) => e.callId === agent)?.outcome).toBe('completed');
    await app.stop();
  });
});
