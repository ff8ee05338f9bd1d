import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Flow, formatDiagnostic, parseFlow } from '@ringflow/dsl';
import { afterEach, describe, expect, it } from 'vitest';
import { type CallScenario, testCalls } from './CallScenario.ts';
import { FlowExpectationError } from './FlowExpectationError.ts';
import { loadScenarioFile } from './loadScenarioFile.ts';
import { runScenarioFiles } from './runScenarioFiles.ts';

function flowOf(text: string): Flow {
  const result = parseFlow(text, 'room.yaml');
  if (!result.ok) throw new Error(result.diagnostics.map(formatDiagnostic).join('\n'));
  return result.flow;
}

/** Everyone joins one room; 1 leaves it; the room's members are told when someone enters. */
const ROOM = `
name: room
start: join
states:
  join:
    steps:
      - answer
      - conference: { name: huddle, as: room }
    next: talking
  talking:
    on:
      roomEntered: { goto: greeted, if: "event.channel.id != call.channelId" }
      dtmf: { goto: out, if: "event.digit == '1'" }
  greeted:
    steps:
      - userEvent: { name: Greeted, variables: { count: { expr: "string(vars.room.count)" } } }
    next: talking
  out:
    steps: [leaveBridge, hangup]
`;

let scenario: CallScenario | undefined;
afterEach(async () => {
  await scenario?.close();
  scenario = undefined;
});

describe('testCalls: several callers in one scenario', () => {
  it('places each caller at its time; their requests and states are told apart', async () => {
    scenario = await testCalls(flowOf(ROOM), {
      calls: { alice: { caller: '5551000' }, bob: { caller: '5552000', at: '5s' } },
    });
    const alice = scenario.call('alice');
    const bob = scenario.call('bob');
    expect(bob.arrived).toBe(false);
    await expect(bob.press('1')).rejects.toThrow('bob presses keys: the call has not arrived yet');
    await scenario.wait('6s');
    expect(bob.arrived).toBe(true);
    expect(alice.channelId).toBe('c1');
    expect(bob.channelId).toBe('c2');
    alice.expectAction({ operation: 'bridges.createWithId', params: { bridgeId: 'ringflow-huddle' } });
    bob.expectAction({ operation: 'bridges.addChannel', params: { channel: 'c2' }, times: 1 } as never);
    bob.expectNoAction({ operation: 'bridges.addChannel', params: { channel: 'c1' } });
    // Both tried to create the room; the second was told it exists, and joined.
    scenario.expectAction({ operation: 'bridges.createWithId' }, { times: 2 });
    expect(bob.actions({ operation: 'bridges.createWithId' })[0]?.status).toBe(409);
    await scenario.expectBridge({ id: 'ringflow-huddle', calls: ['alice', 'bob'] });
    // Alice's flow heard Bob come in; Bob's flow counted two in the room when it joined.
    alice.expectVisited('greeted');
    alice.expectUserEvent('Greeted', { count: '1' });
    bob.expectNotVisited('greeted');
    await bob.press('1');
    await bob.expectEnd({ status: 'completed', by: 'flow', within: '10s' });
    await scenario.expectBridge({ id: 'ringflow-huddle', calls: ['alice'] });
    await alice.hangUp();
    await alice.expectEnd({ status: 'hungUp', by: 'caller' });
    // The last one out closed the room: nothing is left on the server.
    await scenario.wait('1s');
    await scenario.expectServer({ channels: 0, bridges: 0, liveRecordings: 0 });
  });

  it('leaves nothing on the server when the application stops with callers in a room', async () => {
    scenario = await testCalls(flowOf(ROOM), { calls: { alice: {}, bob: {}, carol: { at: '1s' } } });
    await scenario.wait('2s');
    await scenario.expectBridge({ id: 'ringflow-huddle', calls: ['alice', 'bob', 'carol'] });
    await scenario.app.stop();
    await scenario.wait('1s');
    await scenario.expectServer({ channels: 0, bridges: 0, liveRecordings: 0 });
  });

  it('shows a failure with every call of the scenario, interleaved and labelled', async () => {
    scenario = await testCalls(flowOf(ROOM), {
      calls: { alice: {}, bob: { at: '1s' } },
    });
    await scenario.wait('2s');
    let error: unknown;
    try {
      await scenario.expectBridge({ id: 'ringflow-huddle', calls: ['alice'] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FlowExpectationError);
    const message = (error as Error).message;
    expect(message).toContain(
      'expected a bridge with id ringflow-huddle holding alice\nbut it holds alice, bob',
    );
    expect(message).toContain('timeline of the calls:\n  +00:00.000  [alice]  ← StasisStart channel=c1');
    expect(message).toMatch(/\+00:00\.000 {2}\[alice\] {2}→ POST \/bridges\/ringflow-huddle/);
    expect(message).toMatch(/\+00:01\.000 {2}\[bob\] {4}← StasisStart channel=c2/);
  });

  it('refuses a caller of a flow it does not know, and a channel id given twice', async () => {
    await expect(testCalls(flowOf(ROOM), { calls: { a: { flow: 'agent' } } })).rejects.toThrow(
      'calls.a.flow: no flow named "agent"',
    );
    await expect(
      testCalls(flowOf(ROOM), { calls: { a: { channelId: 'x' }, b: { channelId: 'x' } } }),
    ).rejects.toThrow('calls.b.channelId: "x" is used twice');
  });
});

describe('the timeline says why', () => {
  it('shows outcomes worth seeing and step failures with their place and what followed', async () => {
    const flow = parseFlow(
      `name: why
start: ask
states:
  ask:
    steps:
      - gather: { media: sound:hello-world, maxDigits: 1, firstDigitTimeout: 2s, as: key }
    next: call
  call:
    steps:
      - dial: { endpoint: PJSIP/sales, on: { busy: oops } }
  oops:
    on: { error: bye }
    steps:
      - originate: { endpoint: nonsense, context: x, extension: s }
  bye:
    steps: [hangup]
`,
      'flows/why.yaml',
    );
    if (!flow.ok) throw new Error(flow.diagnostics.map(formatDiagnostic).join('\n'));
    scenario = await testCalls(flow.flow, { calls: { caller: {} }, farEnds: { 'PJSIP/sales': 'busy' } });
    const caller = scenario.call('caller');
    const end = await caller.expectEnd({ status: 'recovered', by: 'flow', within: '1m' });
    const text = scenario.formatTimeline();
    expect(text).toContain('◇ gather → noInput');
    expect(text).toMatch(/◇ dial → busy cause=17/);
    expect(text).toContain(
      '✗ originate failed (oops, step 1, flows/why.yaml:14:9): channels.originateWithId answered 400 "Invalid endpoint specified" → the state\'s on.error: bye',
    );
    expect(end.error).toMatchObject({ step: 'originate', state: 'oops', status: 400 });
    expect(caller.failures()).toHaveLength(1);
  });
});

describe('the timeline says why, for an expression too', () => {
  it('an expression that cannot be evaluated is a step failure with its place', async () => {
    const flow = parseFlow(
      `name: broken
start: a
states:
  a:
    steps:
      - answer
      - play: { media: { expr: "'sound:' + call.args[3]" } }
      - hangup
`,
      'flows/broken.yaml',
    );
    if (!flow.ok) throw new Error(flow.diagnostics.map(formatDiagnostic).join('\n'));
    scenario = await testCalls(flow.flow, { calls: { caller: {} } });
    const end = await scenario.call('caller').expectEnd({ status: 'failed', within: '5s' });
    expect(end.error).toMatchObject({ step: 'play', cause: 'expression' });
    expect(scenario.formatTimeline()).toMatch(
      /✗ play failed \(a, step 2, flows\/broken\.yaml:7:9\): .*call\.args\[3\].* → nothing handled it: the flow ends with status failed and hangs up/,
    );
  });
});

describe('scenario files with several calls', () => {
  async function files(content: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-calls-'));
    for (const [name, text] of Object.entries(content)) await writeFile(join(dir, name), text);
    return dir;
  }

  it('transport: set by the file, overridden by a scenario or by the run; a wrong value is placed', async () => {
    const dir = await files({
      'room.yaml': ROOM,
      'room.test.yaml': `transport: socket
calls:
  alice: { caller: "5551000" }
  bob: { caller: "5552000", at: 2s }
scenarios:
  - name: on the file's transport
    steps:
      - wait: 3s
      - expect: { bridge: { id: ringflow-huddle, calls: [alice, bob] } }
  - name: per call
    transport: per-call
    steps:
      - wait: 3s
      - expect: { bridge: { id: ringflow-huddle, calls: [alice, bob] } }
`,
    });
    const loaded = await loadScenarioFile(join(dir, 'room.test.yaml'));
    if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join('\n'));
    expect(loaded.suite.scenarios.map((s) => s.options.transport)).toEqual(['socket', 'per-call']);
    const run = await runScenarioFiles([join(dir, 'room.test.yaml')]);
    expect(run.results.map((r) => [r.transport, r.passed])).toEqual([
      ['socket', true],
      ['per-call', true],
    ]);
    const forced = await runScenarioFiles([join(dir, 'room.test.yaml')], {}, { transport: 'http' });
    expect(forced.results.map((r) => [r.transport, r.passed])).toEqual([
      ['http', true],
      ['http', true],
    ]);

    await writeFile(
      join(dir, 'room.test.yaml'),
      'transport: pigeon\nscenarios:\n  - name: any\n    steps: [{ wait: 1s }]\n',
    );
    const wrong = await loadScenarioFile(join(dir, 'room.test.yaml'));
    expect(wrong.ok).toBe(false);
    expect(wrong.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      expect.stringMatching(/^1:12 .*"pigeon".*"http", "socket", "per-call"/),
    ]);
  });

  it('runs steps addressed to callers and checks the room', async () => {
    const dir = await files({
      'room.yaml': ROOM,
      'room.test.yaml': `calls:
  alice: { caller: "5551000" }
  bob: { caller: "5552000", at: 2s }
scenarios:
  - name: two in the huddle, then bob leaves
    steps:
      - wait: 3s
      - expect:
          bridge: { id: ringflow-huddle, calls: [alice, bob] }
          userEvent: { name: Greeted }
      - alice: { expect: { visited: greeted } }
      - bob: { press: "1" }
      - bob: { expect: { end: { status: completed, by: flow } } }
      - alice: hangup
      - wait: 1s
      - expect:
          server: { channels: 0, bridges: 0 }
`,
    });
    const run = await runScenarioFiles([join(dir, 'room.test.yaml')]);
    expect(run.problems).toEqual([]);
    expect(run.results.map((r) => [r.passed, r.failure?.message])).toEqual([[true, undefined]]);
    expect(run.results[0]!.calls.map((c) => c.name)).toEqual(['alice', 'bob']);
    // Coverage counts the states of both callers.
    const report = run.coverage.get(join(dir, 'room.yaml'))!.report();
    expect(
      report.states
        .filter((s) => s.visits > 0)
        .map((s) => s.name)
        .sort(),
    ).toEqual(['greeted', 'join', 'out', 'talking']);
  });

  it('checks the keys of one expect in the order written, and says so when a check before an end fails', async () => {
    const dir = await files({
      'later.yaml': `name: later
start: a
states:
  a:
    after: { 5s: b }
  b:
    steps: [hangup]
`,
      'later.test.yaml': `scenarios:
  - name: state now, then the end
    steps:
      - expect: { state: a, end: { status: completed, within: 10s }, visited: b }
  - name: visited written before end
    steps:
      - expect: { visited: b, end: { status: completed, within: 10s } }
`,
    });
    const run = await runScenarioFiles([join(dir, 'later.test.yaml')]);
    expect(run.results[0]).toMatchObject({ scenario: 'state now, then the end', passed: true });
    expect(run.results[1]?.passed).toBe(false);
    expect(run.results[1]?.failure?.message).toContain(
      'but it visited a\n(checked before the end: the keys of an expect are checked in the order written; put end first to check this at the end)',
    );
  });

  it("plays the flow's own prompts given in sounds:, and a prompt the server lacks fails with why", async () => {
    const dir = await files({
      'prompts.yaml': `name: prompts
start: a
states:
  a:
    steps:
      - answer
      - play: { media: sound:acme/welcome }
      - play: { media: sound:acme/missing }
      - hangup
`,
      'prompts.test.yaml': `sounds:
  acme/welcome: 2.5s
scenarios:
  - name: the welcome plays for its length, the missing one fails the flow
    steps:
      - expect:
          end: { status: failed, by: flow, within: 10s }
          action: { operation: channels.play, params: { media: sound:acme/missing } }
`,
    });
    const run = await runScenarioFiles([join(dir, 'prompts.test.yaml')]);
    expect(run.results.map((r) => [r.passed, r.failure?.message])).toEqual([[true, undefined]]);
    const loaded = await loadScenarioFile(join(dir, 'prompts.test.yaml'));
    if (!loaded.ok) throw new Error('expected the file to load');
    scenario = await testCalls(loaded.suite.flow, loaded.suite.scenarios[0]!.options);
    const end = await scenario.call('caller').expectEnd({ status: 'failed' });
    expect(end.at).toBe(2500);
    expect(scenario.formatTimeline()).toContain(
      '✗ play failed (a, step 3, ' +
        join(dir, 'prompts.yaml') +
        ':8:9): the server could not play sound:acme/missing (language en): it has no such sound or recording',
    );
  });

  it('a far end as a party of the scenario: A calls B through the flow, B answers, talks and hangs up', async () => {
    const dir = await files({
      'transfer.yaml': `name: transfer
start: a
states:
  a:
    steps:
      - answer
      - dial: { endpoint: PJSIP/agent, timeout: 20s }
    next: bye
  bye:
    steps:
      - play: { media: sound:vm-goodbye }
      - hangup
`,
      'transfer.test.yaml': `calls:
  customer: { caller: "5551234" }
  agent: { answers: PJSIP/agent }
farEnds: { PJSIP/agent: { answerAfter: 3s } }
scenarios:
  - name: the agent answers, talks, and hangs up; the customer hears goodbye
    steps:
      - wait: 5s
      - expect:
          bridge: { calls: [customer, agent] }
      - agent: { talk: 2s }
      - agent: hangup
      - customer:
          expect:
            visited: bye
            end: { status: completed, by: flow, within: 1m }
      - expect:
          server: { channels: 0, bridges: 0 }
`,
    });
    const run = await runScenarioFiles([join(dir, 'transfer.test.yaml')]);
    expect(run.results.map((r) => [r.passed, r.failure?.message])).toEqual([[true, undefined]]);

    const loaded = await loadScenarioFile(join(dir, 'transfer.test.yaml'));
    if (!loaded.ok) throw new Error('expected the file to load');
    const options = loaded.suite.scenarios[0]!.options;
    scenario = await testCalls(loaded.suite.flow, {
      ...options,
      calls: { ...options.calls, nobody: { answers: 'PJSIP/nobody' } },
    });
    const agent = scenario.call('agent');
    await expect(scenario.call('nobody').press('1')).rejects.toThrow(
      'nobody presses keys: no flow has dialled PJSIP/nobody yet',
    );
    await scenario.wait('5s');
    expect(agent.channelId).toMatch(/^channel-/);
    expect(() => agent.expectVisited('bye')).toThrow('agent answers PJSIP/agent: it runs no flow');
    expect(scenario.formatTimeline()).toMatch(/\[agent\] +☎ PJSIP\/agent rings/);
  });

  it('a far end that is another flow: the dialled Local channel runs it, and both flows are checked', async () => {
    const dir = await files({
      'front.yaml': `name: front
start: a
states:
  a:
    steps:
      - answer
      - dial: { endpoint: Local/200@agents, timeout: 20s }
    next: bye
  bye:
    steps: [hangup]
`,
      'agent.yaml': `name: agent
start: greet
states:
  greet:
    steps:
      - answer
      - play: { media: sound:hello-world }
      - hangup
`,
      'front.test.yaml': `flow: front.yaml
flows: { agent: agent.yaml }
calls:
  customer: {}
  agent: { flow: agent, answers: Local/200@agents }
scenarios:
  - name: the agent's flow answers, greets and hangs up; the customer's flow goes on
    steps:
      - agent:
          expect:
            end: { status: completed, by: flow, within: 10s }
            states: [greet]
      - customer:
          expect:
            end: { status: completed, by: flow, within: 10s }
            visited: bye
          `,
    });
    const run = await runScenarioFiles([join(dir, 'front.test.yaml')]);
    expect(run.problems).toEqual([]);
    expect(run.results.map((r) => [r.passed, r.failure?.message])).toEqual([[true, undefined]]);
  });

  it('says which caller a step needs when there are several, at the line of the step', async () => {
    const dir = await files({
      'room.yaml': ROOM,
      'room.test.yaml': `calls: { alice: {}, bob: {} }
scenarios:
  - name: unaddressed
    steps:
      - press: "1"
      - expect: { state: talking }
      - carol: hangup
`,
    });
    const loaded = await loadScenarioFile(join(dir, 'room.test.yaml'));
    expect(loaded.ok).toBe(false);
    const messages = loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
    expect(messages).toEqual([
      '5:9 press: this scenario has several callers (alice, bob); say whose: - alice: { press: ... }',
      "6:19 state is about one caller's flow and this scenario has several (alice, bob); say whose: - alice: { expect: { state: ... } }",
      '7:9 Unknown step "carol". Known steps: wait, talk, say, press, hangup, hangupFarEnd, inject, expect, alice, bob.',
    ]);
  });
});

/** The application each call's StasisStart named, in order. */
function stasisApps(world: CallScenario): unknown[] {
  return world
    .timeline()
    .filter((e) => e.kind === 'event' && e.type === 'StasisStart')
    .map((e) => (e.kind === 'event' ? e.event.application : undefined));
}

describe('testCalls: how the application and the server talk (transport)', () => {
  const calls = { alice: { caller: '5551000' }, bob: { caller: '5552000', at: '5s' } };

  it('http (default): the application sends requests and opens the event stream; nothing dials it', async () => {
    scenario = await testCalls(flowOf(ROOM), { calls });
    await scenario.wait('6s');
    expect(scenario.app.listening).toBeUndefined();
    expect(scenario.app.connections().map((c) => c.state.kind)).toEqual(['open']);
  });

  it('socket: the server dials one connection; the calls and their requests travel on it', async () => {
    scenario = await testCalls(flowOf(ROOM), { calls, transport: 'socket' });
    await scenario.wait('6s');
    expect(scenario.app.listening?.acceptedConnections).toBe(1);
    expect(scenario.app.listening?.openConnections).toBe(1);
    scenario.call('bob').expectAction({ operation: 'bridges.addChannel', params: { channel: 'c2' } });
    expect(stasisApps(scenario)).toEqual(['flow-test', 'flow-test']);
  });

  it('per-call: one connection per call, named <app>:<channel>; each call acts over its own', async () => {
    scenario = await testCalls(flowOf(ROOM), { calls, transport: 'per-call' });
    await scenario.wait('1s');
    expect(scenario.app.listening?.acceptedConnections).toBe(1);
    await scenario.wait('5s');
    expect(scenario.app.listening?.acceptedConnections).toBe(2);
    scenario.call('bob').expectAction({ operation: 'bridges.addChannel', params: { channel: 'c2' } });
    const apps = stasisApps(scenario);
    expect(apps).toEqual([expect.stringMatching(/^flow-test:.+/), expect.stringMatching(/^flow-test:.+/)]);
    expect(new Set(apps).size).toBe(2);
    await scenario.call('alice').press('1');
    await scenario.call('alice').expectEnd({ status: 'completed', by: 'flow' });
  });
});
