import { afterEach, describe, expect, it } from 'vitest';
import { type CallScenario, type FarEndBehaviour, testCalls } from '@ringflow/testing';
import { defineFlow } from '../defineFlow.ts';

let scenario: CallScenario | undefined;
afterEach(async () => {
  await scenario?.close();
  scenario = undefined;
});

/**
 * Callers answer, wait in the `support` queue, and report how they left it (outcome, agent,
 * seconds waited) in a user event before hanging up.
 */
function supportFlow(queue: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) {
  return defineFlow({
    name: 'support',
    start: 'q',
    queues: {
      support: {
        agents: ['PJSIP/alice', 'PJSIP/bob'],
        strategy: 'ringAll',
        ringTimeout: '10s',
        wrapUp: '5s',
        retry: '5s',
        ...settings,
      },
    },
    states: {
      q: {
        steps: [
          'answer',
          {
            queue: {
              name: 'support',
              as: 'q',
              ...queue,
              on: { timeout: 'report', exited: 'report', noAgents: 'report' },
            },
          },
        ],
        next: 'report',
      },
      report: {
        steps: [
          {
            userEvent: {
              name: 'Queued',
              variables: {
                outcome: { expr: 'vars.q.outcome' },
                agent: { expr: "has(vars.q.agent) ? vars.q.agent : 'none'" },
                waited: { expr: 'string(vars.q.waited)' },
              },
            },
          },
          'hangup',
        ],
      },
    },
  });
}

function start(
  flow: ReturnType<typeof supportFlow>,
  calls: Record<string, { at?: string }>,
  farEnds: Record<string, FarEndBehaviour>,
) {
  return testCalls(flow, { calls, farEnds });
}

/** The queue's own account of itself (the application's only queue). */
function queueState(s: CallScenario) {
  const [queue] = s.app.queues.all();
  if (!queue) throw new Error('no queue was opened');
  return queue.state;
}

describe('queue on the simulator', () => {
  it('two callers queue: the first is bridged with the agent who answers, the second hears it is next and gets the agent after wrap-up', async () => {
    scenario = await start(
      supportFlow({ announce: { every: '20s' } }, { agents: ['PJSIP/alice'] }),
      { first: {}, second: { at: '1s' } },
      { 'PJSIP/alice': { answerAfterMs: 3_000 } },
    );
    const first = scenario.call('first');
    const second = scenario.call('second');
    await scenario.wait('500ms');
    first.expectAction({ operation: 'channels.startMoh', params: { channelId: 'c1' } }, { times: 1 });
    const [ring1] = first.expectAction({
      operation: 'channels.originateWithId',
      params: { endpoint: 'PJSIP/alice', timeout: 10 },
    });
    await scenario.wait('3s'); // alice answers at 3 s
    first.expectAction({ operation: 'channels.stopMoh', params: { channelId: 'c1' } }, { times: 1 });
    const [bridge] = first.expectAction({ operation: 'bridges.addChannel' });
    expect(String(bridge?.params.channel)).toBe(`c1,${String(ring1?.params.channelId)}`);
    // The second caller waits with music; the agent is talking, so nobody rings for it.
    second.expectAction({ operation: 'channels.startMoh', params: { channelId: 'c2' } }, { times: 1 });
    second.expectNoAction('channels.originateWithId');
    expect(queueState(scenario).callers.map((c) => c.callId)).toEqual(['c2']);

    await scenario.wait('18s'); // 21 s: the second caller's first announcement
    second.expectAction({ operation: 'channels.stopMoh', params: { channelId: 'c2' } }, { times: 1 });
    second.expectAction({
      operation: 'channels.play',
      params: {
        channelId: 'c2',
        // Next in line; one caller was answered after 3 s: less than a minute.
        media:
          'sound:queue-youarenext,sound:queue-holdtime,sound:queue-less-than,number:1,sound:queue-minute,sound:queue-thankyou',
      },
    });
    await scenario.wait('9s'); // the announcement ended: the music again
    second.expectAction({ operation: 'channels.startMoh', params: { channelId: 'c2' } }, { times: 2 });

    await scenario.hangUpFarEnd('PJSIP/alice'); // 30.5 s
    first.expectUserEvent('Queued', { outcome: 'answered', agent: 'PJSIP/alice', waited: '3' });
    await first.expectEnd({ status: 'completed', by: 'flow' });
    // alice wraps up for 5 s, then rings for the second caller.
    await scenario.wait('4900ms');
    second.expectNoAction('channels.originateWithId');
    await scenario.wait('100ms');
    second.expectAction({ operation: 'channels.originateWithId', params: { endpoint: 'PJSIP/alice' } });
    await scenario.wait('3s');
    second.expectAction({ operation: 'bridges.addChannel' });
    await scenario.hangUpFarEnd('PJSIP/alice');
    // It arrived at 1 s and was answered at 38.5 s.
    second.expectUserEvent('Queued', { outcome: 'answered', agent: 'PJSIP/alice', waited: '38' });
    await second.expectEnd({ status: 'completed', by: 'flow' });
    expect(queueState(scenario).stats.left).toMatchObject({ answered: 2, abandoned: 0 });
    expect(queueState(scenario).agents[0]).toMatchObject({ activity: 'idle', callsTaken: 2 });
  });

  it('round robin: an agent who does not answer rests, the next one is rung; busy moves on at once', async () => {
    scenario = await start(
      supportFlow({}, { agents: ['PJSIP/alice', 'PJSIP/bob', 'PJSIP/carol'], strategy: 'roundRobin' }),
      { caller: {} },
      { 'PJSIP/alice': 'noAnswer', 'PJSIP/bob': 'busy', 'PJSIP/carol': { answerAfterMs: 2_000 } },
    );
    const caller = scenario.call('caller');
    await scenario.wait('30s');
    const rung = caller.actions({ operation: 'channels.originateWithId' }).map((a) => a.params.endpoint);
    // alice rang out (10 s), bob was busy at once, carol answered 2 s later.
    expect(rung).toEqual(['PJSIP/alice', 'PJSIP/bob', 'PJSIP/carol']);
    caller.expectAction({ operation: 'bridges.addChannel' });
    await scenario.hangUpFarEnd('PJSIP/carol');
    caller.expectUserEvent('Queued', { outcome: 'answered', agent: 'PJSIP/carol', waited: '12' });
    // The caller's music ran from joining until carol answered, never restarted in between.
    caller.expectAction({ operation: 'channels.startMoh' }, { times: 1 });
  });

  it('maximum wait: the caller leaves with timeout, the agent still ringing is hung up, the music stops', async () => {
    scenario = await start(
      supportFlow({ maxWait: '25s' }, { agents: ['PJSIP/alice'], ringTimeout: '30s' }),
      { caller: {} },
      { 'PJSIP/alice': 'noAnswer' },
    );
    const caller = scenario.call('caller');
    await scenario.wait('24s');
    const [ring] = caller.expectAction({ operation: 'channels.originateWithId' });
    caller.expectNoAction('channels.stopMoh');
    await scenario.wait('1s');
    caller.expectUserEvent('Queued', { outcome: 'timeout', agent: 'none', waited: '25' });
    caller.expectAction({
      operation: 'channels.hangup',
      params: { channelId: String(ring?.params.channelId) },
    });
    caller.expectAction({ operation: 'channels.stopMoh', params: { channelId: 'c1' } }, { times: 1 });
    expect(queueState(scenario).stats.left).toMatchObject({ timeout: 1 });
    expect(queueState(scenario).agents[0]).toMatchObject({ activity: 'idle' });
  });

  it('the exit key takes the caller out during an announcement: it stops, the step ends exited', async () => {
    scenario = await start(
      supportFlow(
        { exitKey: '1', announce: { every: '5s', expectedWait: false } },
        { agents: ['PJSIP/alice'] },
      ),
      { caller: {} },
      { 'PJSIP/alice': 'noAnswer' },
    );
    const caller = scenario.call('caller');
    await scenario.wait('6s');
    const [play] = caller.expectAction({
      operation: 'channels.play',
      params: { media: 'sound:queue-youarenext,sound:queue-thankyou' },
    });
    await caller.press('2'); // not the exit key
    caller.expectNoAction({ operation: 'events.userEvent' });
    await caller.press('1');
    caller.expectUserEvent('Queued', { outcome: 'exited', waited: '6' });
    caller.expectAction({
      operation: 'playbacks.stop',
      params: { playbackId: String(play?.params.playbackId) },
    });
    expect(queueState(scenario).stats.left).toMatchObject({ exited: 1 });
  });

  it('a caller who hangs up while waiting is abandoned; the agent ringing for it is free for the next caller', async () => {
    scenario = await start(
      supportFlow({}, { agents: ['PJSIP/alice'] }),
      { first: {}, second: { at: '1s' } },
      { 'PJSIP/alice': ['noAnswer', { answerAfterMs: 1_000 }] },
    );
    await scenario.wait('4s');
    await scenario.call('first').hangUp();
    await scenario.call('first').expectEnd({ status: 'hungUp' });
    const second = scenario.call('second');
    await scenario.wait('2s');
    second.expectAction({ operation: 'channels.originateWithId', params: { endpoint: 'PJSIP/alice' } });
    second.expectAction({ operation: 'bridges.addChannel' });
    expect(queueState(scenario).stats.left).toMatchObject({ abandoned: 1, answered: 1 });
  });

  it('a status set elsewhere on the server reaches the queue: an agent a supervisor paused is not rung', async () => {
    scenario = await start(
      supportFlow({}, { agents: ['PJSIP/alice', 'PJSIP/bob'], strategy: 'roundRobin', retry: '1s' }),
      { caller: {} },
      { 'PJSIP/alice': 'noAnswer', 'PJSIP/bob': 'noAnswer' },
    );
    await scenario.wait('1s'); // the caller joined; alice rings
    // A supervisor's tool (another application) pauses bob on the server.
    const paused = await scenario.simulator.handle({
      method: 'PUT',
      path: '/deviceStates/Stasis:queue-support-PJSIP-bob',
      query: { deviceState: 'ONHOLD' },
    });
    expect(paused.status).toBe(204);
    await scenario.wait('1s');
    expect(queueState(scenario).agents.find((a) => a.endpoint === 'PJSIP/bob')).toMatchObject({
      paused: true,
    });
    await scenario.wait('40s');
    const rung = scenario.call('caller').actions({ operation: 'channels.originateWithId' });
    // Only alice rings: at 0 s, and again each time her 10 s ring and 1 s rest have passed.
    expect(rung.map((a) => a.params.endpoint)).toEqual([
      'PJSIP/alice',
      'PJSIP/alice',
      'PJSIP/alice',
      'PJSIP/alice',
    ]);
  });

  it('no agents: a queue nobody is logged in to sends the caller on at once', async () => {
    scenario = await start(supportFlow({}, { agents: [] }), { caller: {} }, {});
    const caller = scenario.call('caller');
    await scenario.wait('1s');
    caller.expectUserEvent('Queued', { outcome: 'noAgents', waited: '0' });
    caller.expectNoAction('channels.originateWithId');
  });

  it('queueAgent: the last agent logging out sends waiting callers on; the status is a device state', async () => {
    const flow = supportFlow({}, { agents: ['PJSIP/alice'] });
    const logout = defineFlow({
      name: 'agent-desk',
      start: 'out',
      queues: { support: { agents: ['PJSIP/alice'] } },
      states: {
        out: {
          steps: [
            'answer',
            { queueAgent: { queue: 'support', agent: 'PJSIP/alice', action: 'logout' } },
            'hangup',
          ],
        },
      },
    });
    scenario = await testCalls(flow, {
      calls: { caller: {}, alice: { at: '5s', flow: 'desk' } },
      flows: { desk: logout },
      farEnds: { 'PJSIP/alice': 'noAnswer' },
    });
    await scenario.wait('6s');
    scenario.call('alice').expectAction({
      operation: 'deviceStates.update',
      params: { deviceName: 'Stasis:queue-support-PJSIP-alice', deviceState: 'UNAVAILABLE' },
    });
    const caller = scenario.call('caller');
    caller.expectUserEvent('Queued', { outcome: 'noAgents', waited: '5' });
    // The agent's call that was ringing for the caller did not outlive the step.
    const [ring] = caller.expectAction({ operation: 'channels.originateWithId' });
    caller.expectAction({
      operation: 'channels.hangup',
      params: { channelId: String(ring?.params.channelId) },
    });
  });
});
