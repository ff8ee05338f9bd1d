import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { callToScenario, scenarioFileFor } from './callToScenario.ts';
import type { RecordedCall } from './RecordedCall.ts';

const PLAYBACK = 'playback-6f1c2a40-0000-4000-8000-000000000001';
const DIALLED = 'channel-6f1c2a40-0000-4000-8000-000000000002';
const BRIDGE = 'bridge-6f1c2a40-0000-4000-8000-000000000003';

/** A call to a desk flow: keys, a talk, the operator dialled (busy, then answered), hung up by the caller. */
const RECORD: RecordedCall = {
  id: 'call-1',
  flow: 'desk',
  flowFile: '/tmp/flows/desk.yaml',
  startedAt: Date.UTC(2026, 0, 5, 10, 0, 0),
  caller: '1000',
  extension: 's',
  language: 'fr',
  actions: [
    { at: 2000, kind: 'press', digits: '12' },
    { at: 5000, kind: 'talk', talking: true },
    { at: 6500, kind: 'talk', talking: false },
    { at: 20_000, kind: 'hangupFarEnd', endpoint: 'PJSIP/operator' },
    { at: 21_250, kind: 'hangup' },
  ],
  farEnds: [
    { endpoint: 'PJSIP/operator', channel: 'x', ringAt: 7000, outcome: 'rejected', at: 7100 },
    { endpoint: 'PJSIP/operator', channel: DIALLED, ringAt: 9000, outcome: 'answered', at: 12_500 },
    { endpoint: 'PJSIP/sales', channel: 'y', ringAt: 9000, outcome: 'ringing' },
  ],
  states: ['greet', 'menu', 'operator', 'done'],
  requests: [
    { at: 10, operation: 'channels.answer', params: { channelId: 'call-1' } },
    {
      at: 20,
      operation: 'channels.play',
      params: { channelId: 'call-1', media: ['sound:hello', 'sound:menu'], playbackId: PLAYBACK },
    },
    { at: 30, operation: 'channels.getChannelVar', params: { channelId: 'call-1', variable: 'X' } },
    {
      at: 9000,
      operation: 'channels.originateWithId',
      params: { channelId: DIALLED, endpoint: 'PJSIP/operator', app: 'desk', appArgs: 'dialed', timeout: 25 },
    },
    {
      at: 12_600,
      operation: 'bridges.addChannel',
      params: { bridgeId: BRIDGE, channel: ['call-1', DIALLED] },
    },
    {
      at: 21_300,
      operation: 'events.userEvent',
      params: {
        eventName: 'Left',
        application: 'desk',
        source: ['channel:call-1'],
        variables: { who: 'call-1' },
      },
    },
    { at: 21_400, operation: 'channels.play', params: { channelId: 'call-1', media: 'sound:bye' } },
    { at: 21_500, operation: 'channels.play', params: { channelId: 'call-1', media: 'sound:bye' } },
    { at: 21_600, operation: 'channels.play', params: { channelId: 'call-10', media: '/not/a/pattern/' } },
  ],
  pickedIds: [PLAYBACK, DIALLED, BRIDGE],
  end: { at: 21_250, status: 'hungUp', by: 'caller' },
  takenAt: 30_000,
};

function scenarioOf(record: RecordedCall) {
  const { yaml } = callToScenario(record, '/tmp/flows');
  const doc = parse(yaml) as { flow: string; scenarios: Record<string, unknown>[] };
  return { yaml, doc, scenario: doc.scenarios[0]! };
}

describe('callToScenario', () => {
  it('names the flow relative to the file, and the caller as the call had it, at the time it called', () => {
    const { yaml, doc, scenario } = scenarioOf(RECORD);
    expect(yaml).toMatch(/^# Recorded by ringflow dev from the call call-1 to the flow desk\./);
    expect(doc.flow).toBe('desk.yaml');
    expect(scenario.name).toBe('recorded call call-1 (2026-01-05T10:00:00Z)');
    expect(scenario.call).toEqual({
      caller: '1000',
      extension: 's',
      language: 'fr',
      startAt: '2026-01-05T10:00:00.000Z',
    });
  });

  it("replays the caller's side: waits measured from the start, less what each step takes", () => {
    const { scenario } = scenarioOf(RECORD);
    const steps = scenario.steps as unknown[];
    expect(steps.slice(0, 7)).toEqual([
      { wait: '2s' },
      { press: '12' }, // two keys take 400 ms of the scenario's time
      { wait: '2600ms' },
      { talk: '1500ms' },
      { wait: '13500ms' },
      { hangupFarEnd: 'PJSIP/operator' },
      { wait: '1250ms' },
    ]);
    expect(steps[7]).toBe('hangup');
  });

  it('gives each far end one behaviour per dial: refused (busy), answered after the time it rang, never answered', () => {
    const { scenario } = scenarioOf(RECORD);
    expect(scenario.farEnds).toEqual({
      'PJSIP/operator': ['busy', { answerAfter: '3500ms' }],
      'PJSIP/sales': 'noAnswer',
    });
  });

  it('expects the end first, then the states in order and every request with how many times it was made', () => {
    const { scenario } = scenarioOf(RECORD);
    const steps = scenario.steps as { expect?: Record<string, unknown> }[];
    const expect1 = steps[8]!.expect!;
    expect(Object.keys(expect1)).toEqual(['end', 'states', 'action']);
    expect(expect1.end).toEqual({ status: 'hungUp', by: 'caller' });
    expect(expect1.states).toEqual(['greet', 'menu', 'operator', 'done']);
    expect(expect1.action).toEqual([
      { operation: 'channels.answer', params: { channelId: 'c1' }, times: 1 },
      {
        operation: 'channels.play',
        params: { channelId: 'c1', media: ['sound:hello', 'sound:menu'], playbackId: '/^playback-[^,]+$/' },
        times: 1,
      },
      {
        operation: 'channels.originateWithId',
        // the application is the scenario's own: not expected
        params: { channelId: '/^channel-[^,]+$/', endpoint: 'PJSIP/operator', timeout: 25 },
        times: 1,
      },
      {
        operation: 'bridges.addChannel',
        // a list travels as comma separated text: one pattern for all of it
        params: { bridgeId: '/^bridge-[^,]+$/', channel: '/^c1,channel-[^,]+$/' },
        times: 1,
      },
      {
        operation: 'events.userEvent',
        params: { eventName: 'Left', source: ['channel:c1'], variables: { who: 'c1' } },
        times: 1,
      },
      { operation: 'channels.play', params: { channelId: 'c1', media: 'sound:bye' }, times: 2 },
      // another call's id is not this call's (call-10 is not call-1); text that reads as a pattern is escaped
      {
        operation: 'channels.play',
        params: { channelId: 'call-10', media: '/^\\/not\\/a\\/pattern\\/$/' },
        times: 1,
      },
    ]);
    // reads are not something the flow did
    expect(JSON.stringify(expect1.action)).not.toContain('getChannelVar');
    expect(steps[9]).toEqual({ expect: { userEvent: { name: 'Left', variables: { who: 'c1' } } } });
    expect(steps).toHaveLength(10);
  });

  it('a call still going on is replayed up to the moment it was saved, then expects the state it is in', () => {
    const { end: _end, ...live } = RECORD;
    const { scenario } = scenarioOf({
      ...live,
      actions: [{ at: 1000, kind: 'talk', talking: true }],
      farEnds: [],
      requests: [],
      takenAt: 4000,
    });
    expect(scenario.farEnds).toBeUndefined();
    expect(scenario.steps).toEqual([
      { wait: '1s' },
      { talk: '3s' }, // still talking when saved
      { expect: { state: 'done', states: ['greet', 'menu', 'operator', 'done'] } },
    ]);
  });

  it('puts the file beside the flow, named after the flow and the call, never over another', () => {
    const taken = new Set(['/tmp/flows/desk.call-1.test.yaml']);
    expect(scenarioFileFor(RECORD, (f) => taken.has(f))).toBe('/tmp/flows/desk.call-1-2.test.yaml');
    expect(scenarioFileFor(RECORD, () => false)).toBe('/tmp/flows/desk.call-1.test.yaml');
  });

  it("scripts an agent step's bot from what it did, and replays the caller's words", () => {
    const { end: _end, ...live } = RECORD;
    const record: RecordedCall = {
      ...live,
      actions: [
        { at: 1000, kind: 'say', text: 'where is my order' },
        { at: 4000, kind: 'say', text: 'bye' },
      ],
      farEnds: [],
      requests: [],
      takenAt: 6000,
      agentTurns: [
        { at: 10, turn: { kind: 'connected', bot: 'ws://127.0.0.1:9100/orders' } },
        { at: 20, turn: { kind: 'bot', text: 'Hello.' } },
        { at: 30, turn: { kind: 'bot', text: 'How can I help?' } },
        { at: 2300, turn: { kind: 'caller', text: 'where is my order' } },
        { at: 2300, turn: { kind: 'tool', id: 'n1', name: 'callerNumber' } },
        { at: 2310, turn: { kind: 'toolResult', id: 'n1', result: '5551234' } },
        { at: 2320, turn: { kind: 'bot', text: 'It shipped.' } },
        { at: 4300, turn: { kind: 'caller', text: 'bye' } },
        { at: 4310, turn: { kind: 'end', outcome: 'done', by: 'bot', data: { happy: true } } },
      ],
    };
    const { scenario } = scenarioOf(record);
    expect(scenario.bot).toEqual({
      greet: 'Hello. How can I help?',
      turns: [
        { hears: 'where is my order', tool: { name: 'callerNumber' }, say: 'It shipped.' },
        { hears: 'bye', end: { result: 'done', data: { happy: true } } },
      ],
    });
    // Each say takes 300 ms a word: the next wait counts from its end.
    expect((scenario.steps as unknown[]).slice(0, 4)).toEqual([
      { wait: '1s' },
      { say: 'where is my order' },
      { wait: '1800ms' },
      { say: 'bye' },
    ]);
    expect(scenario.steps).toContainEqual({
      expect: expect.objectContaining({ bot: { tools: ['callerNumber'], ended: 'done' } }),
    });
    // A bot that could not be reached.
    const unreachable = scenarioOf({
      ...record,
      agentTurns: [{ at: 10, turn: { kind: 'unreachable', bot: 'ws://x', reason: 'connection refused' } }],
    });
    expect(unreachable.scenario.bot).toBe('unreachable');
    // Two sessions (the step entered again), the second one's bot down: a script per session.
    const twice = scenarioOf({
      ...record,
      agentTurns: [
        ...record.agentTurns!,
        { at: 5000, turn: { kind: 'unreachable', bot: 'ws://127.0.0.1:9100/orders', reason: 'refused' } },
        { at: 5100, turn: { kind: 'connected', bot: 'ws://127.0.0.1:9100/orders' } },
        { at: 5200, turn: { kind: 'bot', text: 'Back again.' } },
      ],
    });
    expect(twice.scenario.bot).toEqual({
      sessions: [scenario.bot, 'unreachable', { greet: 'Back again.', turns: [] }],
    });
    // A bot of the audio protocol is not scripted (its words are its own audio): it is reached at its address.
    const audio = scenarioOf({
      ...record,
      agentTurns: [
        { at: 10, turn: { kind: 'connected', bot: 'ws://127.0.0.1:9200/echo', protocol: 'audio' } },
        { at: 900, turn: { kind: 'end', outcome: 'handoff', by: 'bot' } },
      ],
    });
    expect(audio.scenario.bot).toEqual({ url: 'ws://127.0.0.1:9200/echo' });
    expect(audio.yaml).toContain('# Its bot speaks the audio protocol');
    // The tools of every session; how the last one ended (it did not: no end expected).
    expect(twice.scenario.steps).toContainEqual({
      expect: expect.objectContaining({ bot: { tools: ['callerNumber'] } }),
    });
  });
});
