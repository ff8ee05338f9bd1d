import { afterEach, describe, expect, it } from 'vitest';
import { type CallScenario, type ScenarioBot, testCalls } from '@ringflow/testing';
import { defineFlow } from '../defineFlow.ts';

let scenario: CallScenario | undefined;
afterEach(async () => {
  await scenario?.close();
  scenario = undefined;
});

/** The caller talks with a bot; how the session ended is reported in a user event, then the call ends. */
function orderFlow(agent: Record<string, unknown> = {}) {
  return defineFlow({
    name: 'orders',
    start: 'talk',
    states: {
      talk: {
        steps: [
          'answer',
          {
            agent: {
              bot: 'order-bot',
              context: { line: 'orders', caller: { expr: 'call.caller.number' } },
              tools: { orderStatus: { expr: "event.args.order == '1234' ? 'shipped' : 'unknown'" } },
              botTimeout: '3s',
              callerTimeout: '6s',
              endKeys: '0',
              as: 'chat',
              ...agent,
              on: {
                handoff: 'report',
                done: 'report',
                failed: 'report',
                unreachable: 'report',
                botSilent: 'report',
                callerSilent: 'report',
                timeout: 'report',
                key: 'report',
              },
            },
          },
        ],
        next: 'report',
      },
      report: {
        steps: [
          {
            userEvent: {
              name: 'AgentEnded',
              variables: {
                outcome: { expr: 'vars.chat.outcome' },
                reason: { expr: "has(vars.chat.data.reason) ? vars.chat.data.reason : ''" },
                turns: { expr: 'string(vars.chat.turns)' },
                interruptions: { expr: 'string(vars.chat.interruptions)' },
                digit: { expr: 'vars.chat.digit' },
              },
            },
          },
          'hangup',
        ],
      },
    },
  });
}

async function start(bot: ScenarioBot, agent: Record<string, unknown> = {}): Promise<CallScenario> {
  scenario = await testCalls(orderFlow(agent), { calls: { caller: {} }, bot });
  return scenario;
}

const orderBot: ScenarioBot = {
  greet: 'Hello, this is the order line.',
  turns: [
    {
      hears: 'where is my order',
      tool: { name: 'orderStatus', args: { order: '1234' } },
      say: 'Your order 1234 is {tool}.',
    },
    { hears: 'agent', say: 'Let me put you through.', end: { result: 'handoff', data: { reason: 'asked' } } },
  ],
};

describe('agent on the simulator', () => {
  it('the caller talks with the bot, which answers from a tool and hands off', async () => {
    const s = await start(orderBot);
    const caller = s.call('caller');
    await s.wait('3s');
    await s.agents.say(caller, 'where is my order');
    await s.wait('4s');
    await s.agents.say(caller, 'an agent please');
    await s.wait('4s');
    caller.expectUserEvent('AgentEnded', {
      outcome: 'handoff',
      reason: 'asked',
      turns: '2',
      interruptions: '0',
    });
    expect(s.agents.heard(caller.channelId).map((h) => h.text)).toEqual([
      'Hello, this is the order line.',
      'Your order 1234 is shipped.',
      'Let me put you through.',
    ]);
    expect(s.agents.surprises).toEqual([]);
    const setup = s.agents.exchanges('caller').find((e) => 'type' in e.message && e.message.type === 'setup');
    expect(setup?.message).toMatchObject({ context: { line: 'orders', caller: '5551234' } });
    // Two caller turns answered: two turn latencies; one session ended by a handoff.
    expect(s.agents.metrics.turnLatencySeconds.samples()[0]?.count).toBe(2);
    expect(s.agents.metrics.sessionsEnded.get({ outcome: 'handoff' })).toBe(1);
    await s.expectServer({ channels: 0, bridges: 0 });
  });
});

describe('agent: how a session ends', () => {
  it('caller speech while the bot talks flushes its audio and the bot is told', async () => {
    const s = await start({
      greet:
        'Hello, this is the order line. You can ask me where your order is, or change an address, or hear our opening hours.',
      turns: [{ hears: 'order', say: 'It shipped.', end: { result: 'done' } }],
    });
    const caller = s.call('caller');
    await s.wait('1500ms');
    await s.agents.say(caller, 'my order');
    await s.wait('3s');
    caller.expectUserEvent('AgentEnded', { outcome: 'done', interruptions: '1' });
    const heard = s.agents.heard(caller.channelId);
    expect(heard[0]?.flushed).toBe(true);
    expect(heard[0]?.text).toMatch(/^Hello, this is the/);
    expect(heard[0]?.text).not.toMatch(/opening hours/);
    expect(heard[1]).toMatchObject({ text: 'It shipped.', flushed: false });
    expect(
      s.agents.exchanges('caller').some((e) => 'type' in e.message && e.message.type === 'interrupted'),
    ).toBe(true);
    expect(s.agents.metrics.interruptions.get()).toBe(1);
  });

  it('without barge-in the caller hears the bot out', async () => {
    const s = await start(
      {
        greet: 'Hello, this is the order line, how can I help?',
        turns: [{ say: 'Bye.', end: { result: 'done' } }],
      },
      { bargeIn: false },
    );
    const caller = s.call('caller');
    await s.wait('1s');
    await s.agents.say(caller, 'hi');
    await s.wait('5s');
    caller.expectUserEvent('AgentEnded', { outcome: 'done', interruptions: '0' });
    // The answer follows the greeting without a gap: one stretch, heard in full.
    expect(s.agents.heard(caller.channelId)).toMatchObject([
      { text: 'Hello, this is the order line, how can I help? Bye.', flushed: false },
    ]);
  });

  it('a bot that does not answer in time: botSilent', async () => {
    const s = await start({ greet: 'Hello.', turns: [{ hears: 'order' }] });
    const caller = s.call('caller');
    await s.wait('1s');
    await s.agents.say(caller, 'where is my order');
    await s.wait('2900ms');
    expect(s.actions({ operation: 'events.userEvent' })).toEqual([]);
    await s.wait('200ms');
    caller.expectUserEvent('AgentEnded', { outcome: 'botSilent', turns: '1' });
    expect(s.agents.exchanges('caller').at(-1)?.message).toEqual({ type: 'hangup', reason: 'botSilent' });
  });

  it('a caller who says nothing after the bot spoke: callerSilent', async () => {
    const s = await start({ greet: 'Hello.' });
    const caller = s.call('caller');
    await s.wait('6200ms');
    expect(s.actions({ operation: 'events.userEvent' })).toEqual([]);
    await s.wait('600ms');
    caller.expectUserEvent('AgentEnded', { outcome: 'callerSilent', turns: '0' });
  });

  it('a bot that cannot be reached: unreachable, and no media is set up', async () => {
    const s = await start('unreachable');
    const caller = s.call('caller');
    await s.wait('100ms');
    caller.expectUserEvent('AgentEnded', { outcome: 'unreachable' });
    s.expectNoAction({ operation: 'channels.externalMedia' });
  });

  it('an end key ends the session; other keys go to the bot', async () => {
    const s = await start({ greet: 'Hi.' });
    const caller = s.call('caller');
    await s.wait('1s');
    await caller.press('5');
    await caller.press('0');
    await s.wait('100ms');
    caller.expectUserEvent('AgentEnded', { outcome: 'key', digit: '0' });
    const keys = s.agents.exchanges('caller').filter((e) => 'type' in e.message && e.message.type === 'key');
    expect(keys.map((e) => e.message)).toEqual([{ type: 'key', digit: '5' }]);
  });

  it('a bot that breaks the protocol: failed, with what it did wrong', async () => {
    const s = await start((conversation) =>
      conversation.onMessage((m) => {
        if (m.type === 'setup') conversation.send({ type: 'end', result: 'maybe' } as never);
      }),
    );
    const caller = s.call('caller');
    await s.wait('100ms');
    caller.expectUserEvent('AgentEnded', { outcome: 'failed' });
    expect(
      s.timeline().some((e) => e.kind === 'caller' && /expected handoff, done, failed/.test(e.text)),
    ).toBe(true);
  });

  it('a tool the flow does not have is an error the bot is told', async () => {
    const s = await start({
      turns: [{ tool: { name: 'refund' }, say: 'Sorry: {tool}', end: { result: 'done' } }],
    });
    const caller = s.call('caller');
    await s.wait('500ms');
    await s.agents.say(caller, 'refund me');
    // Ten words: longer than the bot's 3 s answer limit, heard to the end all the same.
    await s.wait('5s');
    expect(s.agents.heard(caller.channelId).map((h) => h.text)).toEqual([
      'Sorry: error: no tool named refund; this flow has: orderStatus',
    ]);
  });

  it('a caller who hangs up mid-session: the bot is told, nothing is left on the server', async () => {
    const s = await start({ greet: 'Hello, this is the order line.' });
    const caller = s.call('caller');
    await s.wait('1s');
    await caller.hangUp();
    await s.wait('1s');
    expect(s.agents.exchanges('caller').at(-1)?.message).toEqual({ type: 'hangup', reason: 'hungUp' });
    expect(s.agents.metrics.sessionsEnded.get({ outcome: 'hungUp' })).toBe(1);
    await s.expectServer({ channels: 0, bridges: 0 });
  });
});
