import { afterEach, describe, expect, it } from 'vitest';
import { type CallScenario, testCalls } from '@ringflow/testing';
import { defineFlow } from '../defineFlow.ts';

let scenario: CallScenario | undefined;
afterEach(async () => {
  await scenario?.close();
  scenario = undefined;
});

/** Caller 5550001 waits in the support queue; any other talks with a bot that may ask how busy it is. */
const flow = defineFlow({
  name: 'busy',
  start: 'route',
  queues: { support: { agents: ['PJSIP/201', 'PJSIP/202'], strategy: 'ringAll', ringTimeout: '30s' } },
  states: {
    route: {
      steps: ['answer'],
      choose: [{ when: "call.caller.number == '5550001'", goto: 'wait' }, { goto: 'talk' }],
    },
    wait: { steps: [{ queue: { name: 'support', maxWait: '5m' } }, 'hangup'] },
    talk: {
      steps: [
        {
          agent: {
            bot: 'bot',
            tools: { waitEstimate: { queue: 'support' } },
            on: { done: 'bye', failed: 'bye', botSilent: 'bye', callerSilent: 'bye' },
          },
        },
      ],
      next: 'bye',
    },
    bye: { steps: ['hangup'] },
  },
});

describe("agent tools answering with a queue's state, from the runtime's queue", () => {
  it('how many callers wait, and how many agents could answer now', async () => {
    scenario = await testCalls(flow, {
      calls: { waiting: { caller: '5550001' }, asking: { caller: '5559999', at: '1s' } },
      farEnds: { 'PJSIP/201': 'noAnswer', 'PJSIP/202': 'noAnswer' },
      bot: { turns: [{ tool: { name: 'waitEstimate' }, say: 'Queue: {tool}', end: { result: 'done' } }] },
    });
    const s = scenario;
    await s.wait('2s');
    await s.agents.say(s.call('asking'), 'how long');
    await s.wait('3s');
    const answers = s.agents
      .exchanges('asking')
      .map((e) => e.message)
      .filter((m) => 'type' in m && m.type === 'toolResult');
    // One caller ahead, both agents ringing for it (not free); the asking caller is not in the queue.
    expect(answers).toEqual([
      { type: 'toolResult', id: 't1', result: { queue: 'support', position: 0, waiting: 1, agentsFree: 0 } },
    ]);
  });
});
