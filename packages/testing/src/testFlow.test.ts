import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFlow } from '@ringflow/dsl';
import { formatDiagnostic } from '@ringflow/dsl';
import type { Flow } from '@ringflow/dsl';
import { FlowCoverage, formatCoverage } from './FlowCoverage.ts';
import { FlowExpectationError } from './FlowExpectationError.ts';
import type { FlowTestCall } from './FlowTestCall.ts';
import { testFlow } from './testFlow.ts';
import { loadScenarioFile } from './loadScenarioFile.ts';
import { runScenarioFiles } from './runScenarioFiles.ts';

function flowOf(text: string): Flow {
  const result = parseFlow(text, 'test.yaml');
  if (!result.ok) throw new Error(result.diagnostics.map(formatDiagnostic).join('\n'));
  return result.flow;
}

/** Greets in the caller's language, reads a channel variable, waits for a user event or a key. */
const FLOW = `
name: small
start: hello
prompts:
  en: { hi: sound:hello-world }
  fr: { hi: sound:vm-goodbye }
on:
  hangup: left
states:
  hello:
    steps:
      - answer
      - play: { prompt: hi }
      - getChannelVar: { name: ACCOUNT, as: account }
    next: waiting
  waiting:
    on:
      userEvent:Escalate: escalated
      dtmf: { goto: bye, if: "event.digit == '9'" }
    after: { 20s: bye }
  escalated:
    steps:
      - userEvent: { name: Escalated, variables: { account: { expr: "vars.account.value" } } }
    next: bye
  bye:
    steps: [hangup]
  left:
    final: true
`;

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

describe('testFlow', () => {
  it('says durations as people write them when the end comes too late', async () => {
    call = await testFlow(flowOf(FLOW));
    const failure = await call.expectEnd({ status: 'completed', within: 10_000 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FlowExpectationError);
    expect((failure as Error).message).toContain('within 10 s');
    expect((failure as Error).message).not.toContain('10000');
  });

  it('places the call with caller, extension, language and channel variables', async () => {
    call = await testFlow(flowOf(FLOW), {
      caller: '5550001',
      extension: '42',
      language: 'fr',
      variables: { ACCOUNT: 'A-17' },
    });
    await call.wait('5s');
    call.expectAction({ operation: 'channels.play', params: { channelId: 'c1', media: 'sound:vm-goodbye' } });
    call.expectAction('POST /channels/c1/answer', { times: 1 });
    expect(call.events('StasisStart')[0]?.event).toMatchObject({
      channel: { caller: { number: '5550001' }, dialplan: { exten: '42' }, language: 'fr' },
    });
    call.expectState('waiting');
    await call.inject({ type: 'ChannelUserevent', eventname: 'Escalate', userevent: {} });
    call.expectUserEvent('Escalated', { account: 'A-17' });
    const end = await call.expectEnd({ status: 'completed', by: 'flow', within: '10s' });
    expect(end.at).toBe(5000);
    expect(call.states()).toEqual(['hello', 'waiting', 'escalated', 'bye']);
  });

  it('lets virtual time run the flow timers, and reports who ended the call and when', async () => {
    call = await testFlow(flowOf(FLOW));
    const end = await call.expectEnd({ by: 'flow', within: '1m' });
    // 1.4 s of greeting, then the 20 s timer of `waiting`.
    expect(end.at).toBe(21_400);
    call.expectNotVisited('escalated');
  });

  it('plays the caller: keys and hangup, with the hangup handler', async () => {
    call = await testFlow(flowOf(FLOW));
    await call.wait('2s');
    await call.press('5');
    call.expectState('waiting');
    await call.hangUp();
    const end = await call.expectEnd({ status: 'hungUp', by: 'caller' });
    expect(end.at).toBe(2200);
    call.expectVisited('left');
    expect(call.formatTimeline()).toMatch(
      /\+00:02\.000 {2}☎ caller presses 5\n\+00:02\.100 {2}← ChannelDtmfReceived channel=c1 digit=5/,
    );
  });

  it('fills in the channel of an injected event from the call', async () => {
    call = await testFlow(flowOf(FLOW));
    await call.wait('2s');
    await call.inject({ type: 'ChannelDtmfReceived', digit: '9', duration_ms: 100 });
    const injected = call.events('ChannelDtmfReceived')[0]!;
    expect(injected.injected).toBe(true);
    expect(injected.event).toMatchObject({ application: 'flow-test', channel: { id: 'c1', state: 'Up' } });
    call.expectVisited('bye');
  });

  it('explains a failed expectation: what was expected, what happened, and the timeline', async () => {
    call = await testFlow(flowOf(FLOW));
    await call.wait('3s');
    const failure = (() => {
      try {
        call.expectAction({ operation: 'channels.play', params: { media: /goodbye/ } });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(FlowExpectationError);
    const message = (failure as Error).message;
    expect(message).toContain('expected an action channels.play with { media: /goodbye/ }');
    expect(message).toContain('the parameters differ; the actions of that kind were:');
    expect(message).toContain(
      '+00:00.000  → POST /channels/c1/play playbackId=playback-1 media=sound:hello-world',
    );
    expect(message).toContain('◆ state waiting');
    expect(() => call!.expectVisited('escalated')).toThrow(/it visited hello → waiting/);
    expect(() => call!.expectUserEvent('Escalated')).toThrow(/the flow raised no user event/);
    await expect(call.expectEnd({ within: '5s' })).rejects.toThrow(/still up at \+00:05\.000/);
  });

  it('refuses mistakes in the test itself with the names that exist', async () => {
    call = await testFlow(flowOf(FLOW));
    expect(() => call!.expectAction('channels.plya')).toThrow(
      /unknown operation 'channels.plya'.*channels\.play/,
    );
    expect(() => call!.expectVisited('nowhere')).toThrow(/unknown state 'nowhere'.*hello, waiting/);
    await expect(call.press('x')).rejects.toThrow(/keys 0-9/);
    await expect(call.wait('soon')).rejects.toThrow(/expected a duration/);
  });

  it('dials far ends that answer, are busy, or never answer', async () => {
    const dialFlow = flowOf(`
name: dialer
start: d
states:
  d:
    steps:
      - answer
      - dial: { endpoint: PJSIP/bob, timeout: 10s, bridge: false, on: { answered: ok, busy: busy, noAnswer: none } }
  ok: { steps: [{ userEvent: { name: Answered } }, hangup] }
  busy: { steps: [{ userEvent: { name: Busy } }, hangup] }
  none: { steps: [{ userEvent: { name: NoAnswer } }, hangup] }
`);
    for (const [farEnd, event, at] of [
      [{ answerAfterMs: 3000 }, 'Answered', 3000],
      ['busy', 'Busy', 0],
      ['noAnswer', 'NoAnswer', 10_000],
    ] as const) {
      call = await testFlow(dialFlow, { farEnds: { 'PJSIP/bob': farEnd } });
      const end = await call.expectEnd({ by: 'flow' });
      call.expectUserEvent(event);
      expect(end.at, JSON.stringify(farEnd)).toBeGreaterThanOrEqual(at);
      await call.close();
    }
  });
});

describe('FlowCoverage', () => {
  it('counts visited states and transitions and lists the ones never taken', async () => {
    const flow = flowOf(FLOW);
    const coverage = new FlowCoverage(flow);
    call = await testFlow(flow);
    await call.expectEnd();
    coverage.record(call.states());
    const report = coverage.report();
    expect(report.states.filter((s) => s.visits > 0).map((s) => s.name)).toEqual(['hello', 'waiting', 'bye']);
    expect(report.transitions).toContainEqual({
      from: 'waiting',
      to: 'bye',
      labels: ["on dtmf [event.digit == '9']", 'after 20s'],
      visits: 1,
    });
    expect(report.transitions).toContainEqual({ from: '*', to: 'left', labels: ['on hangup'], visits: 0 });
    const text = formatCoverage(report);
    expect(text).toContain('coverage of flow small: states 3/5 (60%), transitions 2/5 (40%)');
    expect(text).toContain('states never visited: escalated, left');
    expect(text).toContain('    waiting -> escalated  (on userEvent:Escalate)');
  });
});

describe('scenario files', () => {
  async function write(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-scenarios-'));
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return dir;
  }

  it('runs the scenarios of a file, reporting the failing step at file:line:col', async () => {
    const dir = await write({
      'small.yaml': FLOW,
      'small.test.yaml': `
call: { variables: { ACCOUNT: B-2 } }
scenarios:
  - name: escalation
    steps:
      - wait: 2s
      - inject: { type: ChannelUserevent, eventname: Escalate, userevent: {} }
      - expect:
          userEvent: { name: Escalated, variables: { account: /^B-/ } }
          end: { status: completed, by: flow, within: 3s }
  - name: wrong expectation
    steps:
      - wait: 2s
      - expect: { visited: escalated }
`,
    });
    const run = await runScenarioFiles([join(dir, 'small.test.yaml')]);
    expect(run.passed).toBe(1);
    expect(run.failed).toBe(1);
    const failure = run.results[1]!.failure!;
    expect(failure.place).toMatchObject({ line: 14, column: 9 });
    expect(failure.message).toContain('expected the flow to visit escalated');
    expect(run.coverage.get(join(dir, 'small.yaml'))?.report().statesVisited).toBe(4);
  });

  it('reports every mistake of a scenario file with its position, without running it', async () => {
    const dir = await write({
      'small.yaml': FLOW,
      'small.test.yaml': `scenarios:
  - name: broken
    stpes: []
  - name: more
    steps:
      - wiat: 2s
      - press: x
      - expect: { visited: nowhere, action: channels.plya, end: { status: done } }
`,
    });
    const result = await loadScenarioFile(join(dir, 'small.test.yaml'));
    expect(result.ok).toBe(false);
    const lines = result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
    expect(lines).toEqual([
      expect.stringMatching(/^2:5 RF103 steps: expected a list/),
      expect.stringMatching(/^3:5 RF100 Unknown field "stpes". Did you mean "steps"\?/),
      expect.stringMatching(/^6:9 RF101 Unknown step "wiat". Did you mean "wait"\?/),
      expect.stringMatching(/^7:16 RF104 press: "x" is not valid: expected keys 0-9, \*, #, A-D/),
      expect.stringMatching(/^8:28 RF200 unknown state "nowhere"/),
      expect.stringMatching(/^8:45 RF104 unknown operation 'channels.plya'/),
      expect.stringMatching(/^8:75 RF104 status: "done" is not allowed here; expected one of "completed"/),
    ]);
  });

  it('far ends as a list: one behaviour per call; an empty list or a wrong entry is reported', async () => {
    const dir = await write({
      'small.yaml': FLOW,
      'small.test.yaml': `farEnds: { PJSIP/a: [busy, { answerAfter: 3s }], PJSIP/b: [], PJSIP/c: [busy, bizzy] }
scenarios:
  - name: any
    steps: [{ wait: 1s }]
`,
    });
    const result = await loadScenarioFile(join(dir, 'small.test.yaml'));
    expect(result.ok).toBe(false);
    const lines = result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
    expect(lines).toEqual([
      expect.stringMatching(/^1:59 RF104 expected at least one behaviour/),
      expect.stringMatching(
        /^1:79 RF104 PJSIP\/c\[1\]: expected answer, busy, reject, noAnswer, unreachable, \{ answerAfter/,
      ),
    ]);
    const good = await write({
      'small.yaml': FLOW,
      'small.test.yaml': `farEnds: { PJSIP/a: [busy, { answerAfter: 3s }] }
scenarios:
  - name: any
    steps: [{ wait: 1s }]
`,
    });
    const loaded = await loadScenarioFile(join(good, 'small.test.yaml'));
    expect(loaded.diagnostics).toEqual([]);
    if (!loaded.ok) throw new Error('expected the file to load');
    expect(loaded.suite.scenarios[0]?.options.farEnds).toEqual({
      'PJSIP/a': ['busy', { answerAfterMs: 3_000 }],
    });
  });

  it('takes values left empty where they may be: a caller with no options, an end with no conditions, a bare hangup', async () => {
    const dir = await write({
      'small.yaml': FLOW,
      'small.test.yaml': `calls:
  alice:
  bob: { at: 1s, caller: 5551000 }
dialplan: 12
scenarios:
  - name: empty values
    steps:
      - alice: hangup
      - bob: { hangup: }
      - alice:
          expect:
            end:
`,
    });
    const loaded = await loadScenarioFile(join(dir, 'small.test.yaml'));
    expect(loaded.diagnostics).toEqual([]);
    if (!loaded.ok) throw new Error('expected the file to load');
    const [scenario] = loaded.suite.scenarios;
    expect(scenario?.options.calls).toEqual({ alice: {}, bob: { at: 1_000, caller: '5551000' } });
    expect(scenario?.options.dialplan).toBe('12');
    expect(scenario?.steps.map((step) => [step.kind, step.call])).toEqual([
      ['hangup', 'alice'],
      ['hangup', 'bob'],
      ['expect', 'alice'],
    ]);
    expect(scenario?.steps[2]).toMatchObject({ expectations: [{ kind: 'end', end: {} }] });
  });
});
