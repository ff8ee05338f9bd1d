import { serveTextBot } from '@ringflow/runtime';
import { type CallScenario, testCalls, until } from '@ringflow/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { orderStatusBot } from './orderStatusBot.ts';

const FLOW = new URL('../../flows/order-status.yaml', import.meta.url).pathname;
const farEnds = {
  'PJSIP/201': { answerAfterMs: 3000 },
  'PJSIP/202': 'noAnswer',
  'PJSIP/203': 'noAnswer',
} as const;

let scenario: CallScenario | undefined;
afterEach(async () => {
  await scenario?.close();
  scenario = undefined;
});

describe('the demo order-status bot in flows/order-status.yaml', () => {
  it('answers where the order is from the caller number, then says goodbye', async () => {
    scenario = await testCalls(FLOW, { calls: { caller: {} }, bot: orderStatusBot(), farEnds });
    const caller = scenario.call('caller');
    await scenario.wait('5s');
    await scenario.agents.say(caller, 'where is my order');
    await scenario.wait('8s');
    await scenario.agents.say(caller, 'great thanks bye');
    await scenario.wait('6s');
    expect(scenario.agents.heard(caller.channelId).map((h) => h.text)).toEqual([
      'Hello, you are through to the order line. How can I help?',
      'Your order 1234 shipped yesterday and arrives tomorrow. Can I help with anything else?',
      'Thank you for calling. Goodbye.',
    ]);
    caller.expectVisited('goodbye');
    caller.expectNotVisited('handoff');
  });

  it('hands a caller it cannot understand twice to the support queue', async () => {
    scenario = await testCalls(FLOW, { calls: { caller: {} }, bot: orderStatusBot(), farEnds });
    const caller = scenario.call('caller');
    await scenario.wait('5s');
    await scenario.agents.say(caller, 'my parcel is blue');
    await scenario.wait('5s');
    await scenario.agents.say(caller, 'the weather');
    await scenario.wait('6s');
    caller.expectUserEvent('AgentHandoff', { reason: 'notUnderstood', turns: 2 });
    await scenario.wait('5s');
    caller.expectAction({ operation: 'channels.originateWithId', params: { endpoint: 'PJSIP/201' } });
  });

  it('over a real WebSocket on 127.0.0.1: the same conversation through serveTextBot', async () => {
    const served = await serveTextBot(orderStatusBot(), { port: 0, path: '/order-status' });
    try {
      scenario = await testCalls(FLOW, { calls: { caller: {} }, bot: { url: served.url }, farEnds });
      const s = scenario;
      const caller = s.call('caller');
      // Virtual time stands still while the bot's messages cross the socket in real time.
      const botSaid = (n: number) =>
        until(
          `the bot's message ${n}`,
          () => (s.agents.exchanges('caller').filter((e) => e.from === 'bot').length >= n ? true : undefined),
          { timeoutMs: 10_000 },
        );
      await botSaid(1);
      await s.wait('5s');
      await s.agents.say(caller, 'where is my order');
      await botSaid(4); // tool, the order, the question
      await s.wait('8s');
      await s.agents.say(caller, 'a person please');
      await botSaid(6); // its words, end
      await s.wait('4s');
      expect(s.agents.heard(caller.channelId).map((h) => h.text)).toEqual([
        'Hello, you are through to the order line. How can I help?',
        'Your order 1234 shipped yesterday and arrives tomorrow. Can I help with anything else?',
        'Let me put you through to a colleague.',
      ]);
      caller.expectUserEvent('AgentHandoff', { reason: 'asked' });
    } finally {
      await scenario?.close();
      scenario = undefined;
      await served.close();
    }
  });
});
