import { afterEach, describe, expect, it } from 'vitest';
import { type CallScenario, type ScenarioBot, testCalls } from '@ringflow/testing';
import { defineFlow } from '../defineFlow.ts';
import { parseFlow } from '../parseFlow.ts';

let scenario: CallScenario | undefined;
afterEach(async () => {
  await scenario?.close();
  scenario = undefined;
});

/** The caller talks with a bot whose tools are a webhook and a queue's state. */
function orderFlow() {
  return defineFlow({
    name: 'orders',
    start: 'talk',
    queues: { support: { agents: ['PJSIP/201'], strategy: 'ringAll' } },
    states: {
      talk: {
        steps: [
          'answer',
          {
            agent: {
              bot: 'order-bot',
              tools: {
                orderStatus: {
                  http: {
                    url: { expr: "'http://127.0.0.1:9/orders/' + event.args.order" },
                    headers: { 'x-caller': { expr: 'call.caller.number' } },
                    body: { expr: "{'order': event.args.order, 'line': 'orders'}" },
                    method: 'POST',
                    timeout: '2s',
                  },
                },
                waitEstimate: { queue: 'support' },
              },
              botTimeout: '3s',
              callerTimeout: '20s',
              as: 'chat',
              on: { done: 'report', failed: 'report', botSilent: 'report', callerSilent: 'report' },
            },
          },
        ],
        next: 'report',
      },
      report: {
        steps: [
          { userEvent: { name: 'AgentEnded', variables: { outcome: { expr: 'vars.chat.outcome' } } } },
          'hangup',
        ],
      },
    },
  });
}

/** Asks for the order's status, says the answer, then ends with done on the caller's next words. */
const askingBot: ScenarioBot = {
  turns: [
    { hears: 'order', tool: { name: 'orderStatus', args: { order: '1234' } }, say: 'Status: {tool}' },
    { hears: 'thanks', say: 'Bye.', end: { result: 'done' } },
  ],
};

interface Asked {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
}

async function start(fetch: typeof globalThis.fetch, bot: ScenarioBot = askingBot) {
  scenario = await testCalls(orderFlow(), { calls: { caller: {} }, bot, fetch });
  return scenario;
}

/** A fake webhook that records what it was asked and answers with `answer`. */
function webhook(answer: (asked: Asked) => Promise<Response>) {
  const asked: Asked[] = [];
  const fetch = ((url: string, init?: RequestInit) => {
    const request: Asked = {
      url: String(url),
      method: init?.method,
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      signal: init?.signal ?? undefined,
    };
    asked.push(request);
    return answer(request);
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

/** The flow's answers to the bot's tool requests. */
function toolResults(s: CallScenario) {
  return s.agents
    .exchanges('caller')
    .map((e) => e.message)
    .filter((m) => 'type' in m && m.type === 'toolResult');
}

/** The caller asks, then thanks the bot: the session goes on after the tool's answer, whatever it was. */
async function converse(s: CallScenario) {
  const caller = s.call('caller');
  await s.wait('500ms');
  await s.agents.say(caller, 'where is my order');
  await s.wait('6s');
  await s.agents.say(caller, 'thanks');
  await s.wait('3s');
  caller.expectUserEvent('AgentEnded', { outcome: 'done' });
  return s.agents.heard(caller.channelId).map((h) => h.text);
}

describe('agent tools backed by a webhook', () => {
  it("asks the webhook with the bot's arguments and answers with the parsed JSON body", async () => {
    const hook = webhook(async () => Response.json({ status: 'shipped', eta: 'tomorrow' }));
    const s = await start(hook.fetch);
    const heard = await converse(s);
    expect(hook.asked).toHaveLength(1);
    expect(hook.asked[0]).toMatchObject({
      url: 'http://127.0.0.1:9/orders/1234',
      method: 'POST',
      headers: { 'x-caller': '5551234', 'content-type': 'application/json' },
      body: { order: '1234', line: 'orders' },
    });
    expect(toolResults(s)).toEqual([
      { type: 'toolResult', id: 't1', result: { status: 'shipped', eta: 'tomorrow' } },
    ]);
    expect(heard[0]).toBe('Status: {"status":"shipped","eta":"tomorrow"}');
  });

  it('an error status: the bot is told the reason and status, and the session goes on', async () => {
    const hook = webhook(async () => Response.json({ error: 'down' }, { status: 503 }));
    const s = await start(hook.fetch);
    const heard = await converse(s);
    expect(toolResults(s)).toEqual([
      {
        type: 'toolResult',
        id: 't1',
        error: 'the tool orderStatus failed (status 503): http://127.0.0.1:9/orders/1234 answered 503',
      },
    ]);
    expect(heard).toEqual([
      expect.stringMatching(/^Status: error: the tool orderStatus failed \(status 503\)/),
      'Bye.',
    ]);
  });

  it('no connection: the bot is told (network)', async () => {
    const hook = webhook(async () => {
      throw new TypeError('fetch failed');
    });
    const s = await start(hook.fetch);
    await converse(s);
    expect(toolResults(s)).toEqual([
      {
        type: 'toolResult',
        id: 't1',
        error:
          'the tool orderStatus failed (network): could not reach http://127.0.0.1:9/orders/1234: fetch failed',
      },
    ]);
  });

  it('no answer within its timeout (virtual time): the bot is told (timeout)', async () => {
    const hook = webhook(
      (asked) =>
        new Promise<Response>((_resolve, reject) =>
          asked.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    const s = await start(hook.fetch);
    const caller = s.call('caller');
    await s.wait('500ms');
    await s.agents.say(caller, 'where is my order');
    for (let i = 0; i < 50 && hook.asked.length === 0; i++) await s.wait('100ms');
    expect(hook.asked).toHaveLength(1);
    // Asked (within the last 100 ms): no answer 1.8 s later; the 2 s timeout answers the bot.
    await s.wait('1800ms');
    expect(toolResults(s)).toEqual([]);
    await s.wait('300ms');
    expect(toolResults(s)).toEqual([
      {
        type: 'toolResult',
        id: 't1',
        error:
          'the tool orderStatus failed (timeout): no answer from http://127.0.0.1:9/orders/1234 within 2000 ms',
      },
    ]);
  });

  it('a request under way when the session ends is aborted, and its answer dropped', async () => {
    const hook = webhook(
      (asked) =>
        new Promise<Response>((_resolve, reject) =>
          asked.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    const s = await start(hook.fetch);
    const caller = s.call('caller');
    await s.wait('500ms');
    await s.agents.say(caller, 'where is my order');
    await s.wait('1500ms');
    expect(hook.asked).toHaveLength(1);
    expect(hook.asked[0]!.signal?.aborted).toBe(false);
    await caller.hangUp();
    await s.wait('100ms');
    expect(hook.asked[0]!.signal?.aborted).toBe(true);
    await s.wait('5s');
    expect(toolResults(s)).toEqual([]);
  });
});

describe("agent tools answering with a queue's state", () => {
  it("the queue's state: the caller is not in it yet (position 0), no answered caller yet (no estimate)", async () => {
    const s = await start(fetch, {
      turns: [{ tool: { name: 'waitEstimate' }, say: 'Queue: {tool}', end: { result: 'done' } }],
    });
    const caller = s.call('caller');
    await s.wait('500ms');
    await s.agents.say(caller, 'how long');
    await s.wait('5s');
    caller.expectUserEvent('AgentEnded', { outcome: 'done' });
    const [answer] = toolResults(s) as { result?: Record<string, unknown> }[];
    expect(answer?.result).toMatchObject({ queue: 'support', position: 0 });
    expect(answer?.result).not.toHaveProperty('estimatedWaitSeconds');
  });
});

describe('agent tools: validation at their place', () => {
  function problems(tools: string) {
    const text = `name: t\nstart: a\nqueues:\n  support: { agents: [PJSIP/201] }\nstates:\n  a:\n    steps:\n      - agent:\n          bot: order-bot\n          tools:\n${tools}      - hangup\n`;
    return parseFlow(text, 'agent.yaml').diagnostics.map(
      (d) => `${d.line}:${d.column} ${d.code} ${d.message}`,
    );
  }

  it('accepts webhooks, queues, expressions and literals', () => {
    expect(
      problems(
        [
          '            orderStatus: { http: { url: "https://crm.example/orders", method: GET, timeout: 3s } }',
          '            wait: { queue: support }',
          '            number: { expr: "call.caller.number" }',
          '            hours: { open: 9, close: 17 }',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('a webhook that is not http(s), a bad method, a bad timeout, an unknown field: each at its field', () => {
    expect(
      problems(
        [
          '            orderStatus:',
          '              http:',
          '                url: ftp://crm/orders',
          '                method: FETCH',
          '                timeout: soon',
          '                retries: 3',
          '',
        ].join('\n'),
      ),
    ).toEqual([
      expect.stringMatching(/^13:22 .* an http:\/\/ or https:\/\/ URL/),
      expect.stringMatching(/^14:25 .*FETCH/),
      expect.stringMatching(/^15:26 .*500ms, 5s, 2m or 1h/),
      expect.stringMatching(/^16:17 .*retries/),
    ]);
  });

  it('a field beside http or queue is reported, not taken for a literal answer', () => {
    expect(
      problems('            orderStatus: { http: { url: "https://crm.example/o" }, timeout: 3s }\n'),
    ).toEqual([expect.stringMatching(/^11:68 RF100 Unknown field "timeout"\. Allowed fields: http\./)]);
    expect(problems('            wait: { queue: support, every: 5s }\n')).toEqual([
      expect.stringMatching(/^11:37 RF100 Unknown field "every"\. Allowed fields: queue\./),
    ]);
  });

  it("event in a tool's expressions is the bot's request: its fields are checked, no unknowable-event warning", () => {
    expect(
      problems(
        [
          '            echo: { expr: "event.name + string(event.args.order)" }',
          '            bad: { expr: "event.nme" }',
          '',
        ].join('\n'),
      ),
    ).toEqual([
      expect.stringMatching(
        /^12:27 RF304 .*the bot's tool request has no field "nme"\. Did you mean "name"\?/,
      ),
    ]);
  });

  it('a queue the flow does not have: at the queue name, with did you mean', () => {
    expect(problems('            wait: { queue: suport }\n')).toEqual([
      expect.stringMatching(/^11:28 RF\d+ No queue named "suport"\. Did you mean "support"\?/),
    ]);
  });
});

describe("flows/order-status.yaml's webhook tool (orders)", () => {
  const FLOW = new URL('../../../../flows/order-status.yaml', import.meta.url).pathname;
  const farEnds = { 'PJSIP/201': 'noAnswer', 'PJSIP/202': 'noAnswer', 'PJSIP/203': 'noAnswer' } as const;

  it("asks the order system for the caller's orders; the bot says them, then hands off", async () => {
    const hook = webhook(async () => Response.json([{ order: '1234', status: 'shipped' }]));
    scenario = await testCalls(FLOW, {
      calls: { caller: {} },
      farEnds,
      fetch: hook.fetch,
      bot: {
        greet: 'Hello.',
        turns: [
          { hears: 'order', tool: { name: 'orders' }, say: 'Your orders: {tool}' },
          { hears: 'person', say: 'One moment.', end: { result: 'handoff', data: { reason: 'asked' } } },
        ],
      },
    });
    const s = scenario;
    const caller = s.call('caller');
    await s.wait('2s');
    await s.agents.say(caller, 'where is my order');
    await s.wait('5s');
    await s.agents.say(caller, 'a person please');
    await s.wait('4s');
    expect(hook.asked.map((a) => [a.url, a.method, a.headers.accept])).toEqual([
      ['http://127.0.0.1:9101/orders?caller=5551234', 'GET', 'application/json'],
    ]);
    expect(s.agents.heard(caller.channelId).map((h) => h.text)).toEqual([
      'Hello.',
      'Your orders: [{"order":"1234","status":"shipped"}]',
      'One moment.',
    ]);
    caller.expectUserEvent('AgentHandoff', { reason: 'asked' });
  });
});
