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
    await s.expectServer({ channels: 0, bridges: 0 });
  });
});
