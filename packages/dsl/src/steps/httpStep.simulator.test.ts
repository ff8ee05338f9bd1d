import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import { runFlowOnSimulator } from './test-support/runFlowOnSimulator.ts';

let run: Awaited<ReturnType<typeof runFlowOnSimulator>> | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** A flow that asks a webhook and keeps the step's result as vars.crm whatever the outcome. */
const flow = defineFlow({
  name: 'lookup',
  start: 'a',
  states: {
    a: {
      steps: [
        'answer',
        { http: { url: 'http://127.0.0.1:9/caller', timeout: '3s', as: 'crm', on: { failed: 'b' } } },
      ],
      next: 'ok',
    },
    ok: { steps: ['hangup'] },
    b: { steps: ['hangup'] },
  },
});

async function lookUp(fetch: typeof globalThis.fetch) {
  run = await runFlowOnSimulator(flow, { fetch });
  for (let i = 0; i < 20 && run.output() === undefined; i++) {
    await new Promise((r) => setTimeout(r, 1));
    await run.clock.advance(500);
  }
  return run;
}

describe('http: why a request failed is in the failed outcome', () => {
  it('an error status: reason status, with the status and the parsed body', async () => {
    const r = await lookUp(async () => Response.json({ error: 'down for maintenance' }, { status: 503 }));
    expect(r.visited()).toEqual(['a', 'b']);
    expect(r.output()?.vars.crm).toMatchObject({
      outcome: 'failed',
      reason: 'status',
      status: 503,
      body: { error: 'down for maintenance' },
      message: 'http://127.0.0.1:9/caller answered 503',
    });
  });

  it('no connection: reason network, no status, the cause in words', async () => {
    const r = await lookUp(async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    });
    expect(r.visited()).toEqual(['a', 'b']);
    expect(r.output()?.vars.crm).toMatchObject({
      outcome: 'failed',
      reason: 'network',
      message: 'could not reach http://127.0.0.1:9/caller: fetch failed (connect ECONNREFUSED 127.0.0.1:9)',
    });
    expect(r.output()?.vars.crm).not.toHaveProperty('status');
  });

  it('no answer within the timeout (virtual time): reason timeout', async () => {
    const r = await lookUp(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    expect(r.visited()).toEqual(['a', 'b']);
    expect(r.output()?.vars.crm).toMatchObject({
      outcome: 'failed',
      reason: 'timeout',
      message: 'no answer from http://127.0.0.1:9/caller within 3000 ms',
    });
  });
});

describe('http: a body with expressions inside', () => {
  it('each { expr } in the body, at any depth, is evaluated; other values are sent as written', async () => {
    const sent: unknown[] = [];
    const withBody = defineFlow({
      name: 'ticket',
      start: 'a',
      states: {
        a: {
          steps: [
            'answer',
            {
              http: {
                url: 'http://127.0.0.1:9/tickets',
                body: {
                  caller: { expr: 'call.caller.number' },
                  source: 'ivr',
                  lines: [{ expr: "'on ' + call.channelId" }, 2],
                  meta: { expr: 1, note: 'an object with more than expr is data' },
                },
              },
            },
          ],
          next: 'done',
        },
        done: { steps: ['hangup'] },
      },
    });
    run = await runFlowOnSimulator(withBody, {
      fetch: async (_url, init) => {
        sent.push(JSON.parse(String(init?.body)));
        return Response.json({ id: 7 });
      },
    });
    for (let i = 0; i < 20 && run.output() === undefined; i++) {
      await new Promise((r) => setTimeout(r, 1));
      await run.clock.advance(500);
    }
    expect(sent).toEqual([
      {
        caller: expect.any(String),
        source: 'ivr',
        lines: [expect.stringMatching(/^on \S+/), 2],
        meta: { expr: 1, note: 'an object with more than expr is data' },
      },
    ]);
    expect((sent[0] as { caller: string }).caller).not.toEqual({ expr: 'call.caller.number' });
  });
});
