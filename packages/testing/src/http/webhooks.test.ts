import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFlow } from '@ringflow/dsl';
import { testCalls } from '../CallScenario.ts';
import { FlowExpectationError } from '../FlowExpectationError.ts';
import { loadScenarioFile } from '../loadScenarioFile.ts';
import { runScenarioFiles } from '../runScenarioFiles.ts';

/**
 * Looks the caller up in a CRM (its query written in another order than the file's answer), then
 * opens a ticket with what it found; each failure says why in a user event.
 */
const FLOW = `
name: crm
start: look
states:
  look:
    steps:
      - answer
      - http:
          url: { expr: "'https://crm.example/callers?number=' + call.caller.number + '&line=sales'" }
          timeout: 3s
          as: crm
          on: { failed: no-crm }
      - http:
          url: https://crm.example/tickets
          method: POST
          headers: { x-line: sales }
          body: { expr: "{'caller': call.caller.number, 'name': vars.crm.body.name}" }
          as: ticket
          on: { failed: no-ticket }
    next: known
  known:
    steps:
      - userEvent: { name: Known, variables: { name: { expr: "vars.crm.body.name" }, ticket: { expr: "vars.ticket.body.id" } } }
      - hangup
  no-crm:
    steps:
      - userEvent: { name: NoCrm, variables: { reason: { expr: "vars.crm.reason" } } }
      - hangup
  no-ticket:
    steps:
      - userEvent: { name: NoTicket, variables: { reason: { expr: "vars.ticket.reason" } } }
      - hangup
`;

async function write(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ringflow-webhooks-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('scenario files answer the flows webhooks (http:)', () => {
  it('answers on the virtual clock, times out, is unreachable, and checks what was asked', async () => {
    const dir = await write({
      'crm.yaml': FLOW,
      'crm.test.yaml': `
http:
  "GET https://crm.example/callers?line=sales&number=5551234": { json: { name: Ada }, after: 300ms }
  "POST https://crm.example/tickets": { status: 201, json: { id: T-9 } }
scenarios:
  - name: answered
    steps:
      - wait: 200ms
      - expect:
          http: { "GET https://crm.example/callers?number=5551234&line=sales": { times: 1 } }
          state: look
      - wait: 200ms
      - expect:
          userEvent: { name: Known, variables: { name: Ada, ticket: T-9 } }
          http:
            "POST https://crm.example/tickets":
              times: 1
              json: { caller: "5551234", name: Ada }
              headers: { X-Line: sales, content-type: /json/ }
  - name: an error status
    http: { "GET https://crm.example/callers*": { status: 503, json: { error: down } } }
    steps:
      - wait: 1s
      - expect:
          userEvent: { name: NoCrm, variables: { reason: status } }
          http: { "POST https://crm.example/tickets": { times: 0 } }
  - name: too slow - the step's timeout aborts it in virtual time
    http: { "GET https://crm.example/callers?number=5551234&line=sales": { after: 10s } }
    steps:
      - wait: 2900ms
      - expect: { state: look }
      - wait: 200ms
      - expect: { userEvent: { name: NoCrm, variables: { reason: timeout } } }
  - name: unreachable
    http: { "GET https://crm.example/callers*": unreachable }
    steps:
      - wait: 100ms
      - expect: { userEvent: { name: NoCrm, variables: { reason: network } } }
  - name: successive answers - a list, the last one repeating
    calls: { first: {}, second: { at: 5s } }
    http:
      "POST https://crm.example/tickets": [{ status: 500 }, { status: 201, json: { id: T-10 } }]
    steps:
      - wait: 6s
      - first: { expect: { userEvent: { name: NoTicket, variables: { reason: status } } } }
      - second:
          expect:
            userEvent: { name: Known, variables: { ticket: T-10 } }
            http: { "POST https://crm.example/tickets": { times: 1 } }
      - expect: { http: { "POST https://crm.example/tickets": { times: 2 } } }
`,
    });
    const run = await runScenarioFiles([join(dir, 'crm.test.yaml')], undefined, { timeline: true });
    const failures = run.results.filter((r) => !r.passed).map((r) => `${r.scenario}: ${r.failure?.message}`);
    expect(failures).toEqual([]);
    expect(run.passed).toBe(5);
    const slow = run.results.find((r) => r.scenario.startsWith('too slow'))!;
    const lines = slow.timeline!.flatMap((e) => (e.kind === 'webhook' ? [`${e.at} ${e.what}`] : []));
    expect(lines).toEqual(['0 asked', '3000 aborted']);
  });

  it('a request nothing answers fails the scenario at its step, saying what was asked and what is answered', async () => {
    const dir = await write({
      'crm.yaml': FLOW,
      'crm.test.yaml': `
http:
  "POST https://crm.example/tickets": { status: 201 }
  "GET https://crm.example/callers?number=1": { json: {} }
scenarios:
  - name: unanswered
    steps:
      - wait: 1s
      - expect: { userEvent: Known }
`,
    });
    const run = await runScenarioFiles([join(dir, 'crm.test.yaml')]);
    const failure = run.results[0]!.failure!;
    expect(failure.place.line).toBe(8);
    expect(failure.message).toContain(
      "expected an answer in the scenario's http: for every request the flow makes\n" +
        'but nothing answers GET https://crm.example/callers?number=5551234&line=sales (caller, at +00:00.000); the scenario answers:\n' +
        '  POST https://crm.example/tickets\n' +
        '  GET https://crm.example/callers?number=1',
    );
    expect(failure.message).toContain('✗ GET https://crm.example/callers?number=5551234&line=sales: nothing');
  });

  it('an expectation that does not hold says what was asked instead', async () => {
    const dir = await write({
      'crm.yaml': FLOW,
      'crm.test.yaml': `
http:
  "GET https://crm.example/callers*": { json: { name: Ada } }
  "POST https://crm.example/tickets": { status: 201, json: { id: T-9 } }
scenarios:
  - name: wrong name
    steps:
      - wait: 1s
      - expect: { http: { "POST https://crm.example/tickets": { json: { name: Bob } } } }
  - name: twice
    steps:
      - wait: 1s
      - expect: { http: { "GET https://crm.example/callers*": { times: 2 } } }
  - name: never asked
    steps:
      - wait: 1s
      - expect: { http: { "DELETE https://crm.example/tickets/T-9": } }
`,
    });
    const run = await runScenarioFiles([join(dir, 'crm.test.yaml')]);
    const [wrong, twice, never] = run.results.map((r) => r.failure?.message ?? 'passed');
    expect(wrong).toMatch(
      /^expected a request POST https:\/\/crm.example\/tickets with json \{ name: "Bob" \}\nbut it was asked with other data:\n {2}\+00:00\.000 \[caller\] POST https:\/\/crm.example\/tickets body=\{"caller":"5551234","name":"Ada"\}\n/,
    );
    expect(twice).toMatch(
      /^expected a request GET https:\/\/crm.example\/callers\*, 2 times\nbut it was asked 1 time:\n/,
    );
    expect(never).toMatch(
      /^expected a request DELETE https:\/\/crm.example\/tickets\/T-9\nbut it was never asked; the requests were:\n.*GET https:\/\/crm.example\/callers\?number=5551234&line=sales\n.*POST https:\/\/crm.example\/tickets body=/,
    );
  });

  it('ringflow validate: every mistake of http: and expect: { http } at its place', async () => {
    const dir = await write({
      'crm.yaml': FLOW,
      'crm.test.yaml': `http:
  "FETCH https://crm.example/a": { status: 200 }
  "get https://crm.example/b": { status: 200 }
  "GET crm.example/c": { status: 200 }
  "GET https://crm.example/*/d": { status: 200 }
  "GET https://crm.example/e": { status: 99 }
  "GET https://crm.example/f": { staus: 200 }
  "GET https://crm.example/g": { json: {}, body: x }
  "GET https://crm.example/h": { status: 204, json: {} }
  "GET https://crm.example/i?a=1&b=2": unreachable
  "GET https://crm.example/i?b=2&a=1": { after: soon }
  "GET https://crm.example/j": down
scenarios:
  - name: any
    steps:
      - wait: 1s
      - expect: { http: { "GET https://crm.example/a": { time: 1 }, "POST /tickets": {} } }
`,
    });
    const result = await loadScenarioFile(join(dir, 'crm.test.yaml'));
    expect(result.ok).toBe(false);
    const lines = result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
    expect(lines).toEqual([
      expect.stringMatching(/^2:3 RF104 unknown method "FETCH": expected GET, POST, PUT, PATCH, DELETE$/),
      expect.stringMatching(/^3:3 RF104 unknown method "get" \(write it GET\)/),
      expect.stringMatching(/^4:3 RF104 "crm.example\/c" is not an http:\/\/ or https:\/\/ URL$/),
      expect.stringMatching(/^5:3 RF104 .*a \* may only end the URL/),
      expect.stringMatching(/^6:42 RF104 status: .*200/),
      expect.stringMatching(/^7:34 RF100 Unknown field "staus". Did you mean "status"\?/),
      expect.stringMatching(/^8:44 RF104 give json \(a JSON answer\) or body \(a text answer\), not both$/),
      expect.stringMatching(/^9:42 RF104 a 204 answer has no body/),
      expect.stringMatching(
        /^11:3 RF104 "GET https:\/\/crm.example\/i\?b=2&a=1" answers the same requests as "GET https:\/\/crm.example\/i\?a=1&b=2"/,
      ),
      expect.stringMatching(/^11:49 RF105 after: "soon" is not valid: expected a number with a unit/),
      expect.stringMatching(
        /^12:32 RF104 GET https:\/\/crm.example\/j: expected unreachable, \{ status, json, body, headers, after \}/,
      ),
      expect.stringMatching(/^17:58 RF100 Unknown field "time". Did you mean "times"\?/),
      expect.stringMatching(/^17:69 RF104 "\/tickets" is not an http:\/\/ or https:\/\/ URL$/),
    ]);
  });
});

describe('testCalls({ http }): the same answers from TypeScript', () => {
  it('answers with text and headers, records whose request it was, and checks it', async () => {
    const parsed = parseFlow(FLOW, 'crm.yaml');
    if (!parsed.ok) throw new Error('the flow has errors');
    await using scenario = await testCalls(parsed.flow, {
      calls: { caller: { caller: '5550001' } },
      http: {
        'GET https://crm.example/callers*': { status: 404, body: 'not found', headers: { 'x-trace': 't1' } },
      },
    });
    await scenario.wait('1s');
    scenario.call('caller').expectUserEvent('NoCrm', { reason: 'status' });
    expect(scenario.webhooks?.requests()).toEqual([
      expect.objectContaining({
        call: 'caller',
        method: 'GET',
        url: 'https://crm.example/callers?number=5550001&line=sales',
        answeredBy: 'GET https://crm.example/callers*',
      }),
    ]);
    scenario.expectWebhook('GET https://crm.example/callers?line=sales&number=5550001', { times: 1 });
    scenario.expectWebhooksAnswered();
    expect(() => scenario.expectWebhook('POST https://crm.example/tickets')).toThrow(FlowExpectationError);
    expect(() => scenario.expectWebhook('POST https://crm.example/tickets')).toThrow(
      /expected a request POST https:\/\/crm.example\/tickets\nbut it was never asked; the requests were:/,
    );
  });

  it('refuses answers it cannot give, and http with fetch', async () => {
    const parsed = parseFlow(FLOW, 'crm.yaml');
    if (!parsed.ok) throw new Error('the flow has errors');
    const calls = { caller: {} };
    await expect(
      testCalls(parsed.flow, { calls, http: { 'GET https://x/': { status: 99 } } }),
    ).rejects.toThrow('http: "GET https://x/".status: expected an HTTP status from 200 to 599, got 99');
    await expect(testCalls(parsed.flow, { calls, http: { 'get https://x/': {} } })).rejects.toThrow(
      'http: unknown method "get" (write it GET)',
    );
    await expect(testCalls(parsed.flow, { calls, http: {}, fetch: globalThis.fetch })).rejects.toThrow(
      'give http (answers the scenario gives) or fetch (your own), not both',
    );
  });
});
