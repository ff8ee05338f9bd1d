import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import {
  type Application,
  type CallEnded,
  type CallHandle,
  type CallInput,
  callActors,
  type InProcessServer,
  MemoryCallStore,
} from '@ringflow/runtime';
import { createSimulator, type SimulatorOptions } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, assign, setup } from 'xstate';
import { expectNothingLeft, inProcessApp, type SeenRequest } from './harness.ts';

/**
 * Calls survive their process: an application stopped mid-call with `detach()` leaves the call
 * on the server and its record in the store; a new application started with the same store
 * (new ids, same simulator) restores it, and the call finishes its flow exactly as an
 * uninterrupted one does: same requests in the same order, no prompt played twice, no second
 * dialled call.
 */

const APP = 'ringflow-demo';
const flow = await loadFlowFile(new URL('../../flows/ivr.yaml', import.meta.url).pathname);
const machine = createFlowCallMachine(flow);

/** What the caller does, in virtual time from the call's start. */
type Script = readonly { readonly at: number; readonly press?: string; readonly hangup?: true }[];

/**
 * The requests for the call, with the ids each application picked replaced by their order of
 * appearance (`#1`, `#2`...): both runs then read the same when they did the same. Lookups made
 * by the restoring application (GET) are its own and left out.
 */
function normalised(requests: readonly (SeenRequest & { at: number })[]): string[] {
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    if (!ids.has(id)) ids.set(id, `#${ids.size + 1}`);
    return ids.get(id)!;
  };
  return requests
    .filter((r) => r.method !== 'GET' && !r.path.startsWith('/api-docs'))
    .map((r) => {
      const path = r.path.replace(/\b[a-z]+-\d+\b/g, (id) => (id === 'caller-1' ? id : idOf(id)));
      const name =
        typeof r.query.name === 'string' && r.query.name.startsWith('voicemail/')
          ? ` name=${r.query.name}`
          : '';
      const media = typeof r.query.media === 'string' ? ` ${r.query.media}` : '';
      return `${(r.at / 1000).toFixed(1)}s ${r.method} ${path}${name}${media}`;
    });
}

/**
 * Runs the IVR for one caller with `script`; with `cutAt`, the application is detached at that
 * time and a second one, with the same store, takes over.
 */
async function runCall(
  script: Script,
  cutAt?: number,
  options: {
    hold?: RegExp;
    gapMs?: number;
    call?: AnyStateMachine;
    endpoints?: SimulatorOptions['endpoints'];
  } = {},
) {
  const { hold, gapMs = 0 } = options;
  const clock = new VirtualClock();
  const simulator = createSimulator({
    clock,
    endpoints: options.endpoints ?? { 'PJSIP/operator': { answerAfterMs: 4000 } },
  });
  const store = new MemoryCallStore();
  // Every request the server receives, with when (virtual time from the call's start).
  const requests: (SeenRequest & { at: number })[] = [];
  let t0 = clock.now();
  // Replies to requests matching `hold` reach the first application only after the cut: it
  // goes away with them in flight (the server did act on them).
  const held: (() => void)[] = [];
  let holding = hold !== undefined;
  const server: InProcessServer = {
    handle: (request) => {
      const reply = simulator.handle(request);
      requests.push({
        server: 'pbx',
        method: request.method,
        path: request.path,
        query: { ...request.query },
        body: request.body,
        at: clock.now() - t0,
      });
      if (holding && hold?.test(`${request.method} ${request.path}`))
        return new Promise((resolve) => held.push(() => resolve(reply)));
      return reply;
    },
    connectEvents: (request, deliver) => simulator.connectEvents(request, deliver),
  };
  const ended: CallEnded[] = [];
  const open = (first: number) => {
    const made = inProcessApp(clock, [{ name: 'pbx', server }], {
      apps: [APP],
      call: options.call ?? machine,
      store,
      ids: (() => {
        let n = first;
        return () => String(++n);
      })(),
    });
    made.app.callEnded$.subscribe((report) => ended.push(report));
    return made;
  };
  let current: { app: Application } = open(0);
  await current.app.start();
  simulator.driver.placeCall({ channelId: 'caller-1', from: '5551234', to: '100', endpoint: 'PJSIP/caller' });
  t0 = clock.now();
  const steps = [
    ...script.map((s) => ({ ...s, cut: false })),
    ...(cutAt === undefined ? [] : [{ at: cutAt, cut: true }]),
  ].sort((a, b) => a.at - b.at);
  let stateAtCut: unknown;
  for (const step of steps) {
    await clock.advance(t0 + step.at - clock.now());
    if (step.cut) {
      stateAtCut = current.app.call('caller-1')?.machine?.getSnapshot().value;
      await current.app.detach();
      // Nobody follows the call for a while: what its resources do meanwhile is not heard.
      if (gapMs > 0) await clock.advance(gapMs);
      current = open(1000);
      await current.app.start();
      holding = false;
      for (const release of held.splice(0)) release();
      continue;
    }
    if ('press' in step && step.press) simulator.driver.pressDigits('caller-1', step.press);
    if ('hangup' in step && step.hangup) simulator.driver.hangup('caller-1');
  }
  await clock.advance(300_000);
  const last = ended.at(-1);
  return { requests: normalised(requests), ended, last, stateAtCut, app: current.app, store };
}

describe('a call restored from its record in a new application goes on as if nothing happened', () => {
  const cases: { name: string; script: Script; cutAt: number; state: RegExp; hold?: RegExp }[] = [
    { name: 'during the welcome prompt', script: [{ at: 30_000, press: '3' }], cutAt: 500, state: /greet/ },
    {
      name: "with the welcome prompt's play request in flight (not played twice)",
      script: [{ at: 30_000, press: '3' }],
      cutAt: 500,
      state: /greet/,
      hold: /\/play$/,
    },
    {
      name: 'in the menu, waiting for a key (its timeout timer carried over)',
      script: [{ at: 30_000, press: '3' }],
      cutAt: 16_000,
      state: /main-menu/,
    },
    {
      name: 'while recording the voicemail',
      script: [{ at: 9_000, press: '3' }],
      cutAt: 21_000,
      state: /voicemail/,
    },
    {
      name: 'while dialling the operator (ringing)',
      script: [
        { at: 9_000, press: '0' },
        { at: 40_000, hangup: true },
      ],
      cutAt: 15_000,
      state: /operator/,
    },
    {
      name: "with the operator's originate request in flight (no second call placed)",
      script: [
        { at: 9_000, press: '0' },
        { at: 40_000, hangup: true },
      ],
      cutAt: 14_000,
      state: /operator/,
      hold: /^POST \/channels\/channel-\d+$/,
    },
  ];

  for (const { name, script, cutAt, state, hold } of cases)
    it(name, async () => {
      const straight = await runCall(script);
      const moved = await runCall(script, cutAt, hold ? { hold } : {});
      expect(JSON.stringify(moved.stateAtCut)).toMatch(state);
      expect(moved.requests).toEqual(straight.requests);
      // The first application let the call go; the second ended it as the uninterrupted one did.
      expect(moved.ended.map((e) => e.outcome)).toEqual(['detached', straight.last?.outcome]);
      expect(moved.last?.output).toEqual(straight.last?.output);
      expect(moved.store.size).toBe(0);
      expectNothingLeft(moved.app);
    });
});

/** Without the times: a restored call that missed events goes on later than an uninterrupted one. */
const withoutTimes = (requests: readonly string[]) => requests.map((r) => r.replace(/^\S+ /, ''));

describe('a restored call is told what its resources did while no process followed it', () => {
  it('a prompt that finished meanwhile: PlaybackFinished, and the flow goes on (the prompt is not played again)', async () => {
    const script: Script = [{ at: 30_000, press: '3' }];
    const straight = await runCall(script);
    const moved = await runCall(script, 500, { gapMs: 5000 });
    expect(withoutTimes(moved.requests)).toEqual(withoutTimes(straight.requests));
    // The menu prompt starts as soon as the new application has looked: at 5.5 s, not 1.4 s.
    expect(moved.requests[2]).toMatch(/^5\.5s POST \/channels\/caller-1\/play sound:demo-instruct/);
    expect(moved.ended.map((e) => e.outcome)).toEqual(['detached', 'completed']);
  });

  it('a caller who hung up meanwhile: the flow hang-up path runs once, then the record goes', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock });
    const store = new MemoryCallStore();
    const first = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
      apps: [APP],
      call: machine,
      store,
    });
    await first.app.start();
    simulator.driver.placeCall({
      channelId: 'caller-1',
      from: '5551234',
      to: '100',
      endpoint: 'PJSIP/caller',
    });
    await clock.advance(500);
    await first.app.detach();
    expect(store.size).toBe(1);
    simulator.driver.hangup('caller-1');
    await clock.advance(1000);
    const second = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
      apps: [APP],
      call: machine,
      store,
    });
    const ended: CallEnded[] = [];
    second.app.callEnded$.subscribe((e) => ended.push(e));
    await second.app.start();
    await clock.advance(6000);
    expect(second.app.activeCalls()).toHaveLength(0);
    expect(store.size).toBe(0);
    // Told StasisEnd (recovered), the flow went to its hang-up state and reported the caller left.
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ outcome: 'reconciled', result: 'hungUp', machineStatus: 'done' });
    expect(second.requests.filter((r) => r.path === '/events/user/CallerLeft')).toHaveLength(1);
    expect(
      second.requests.filter((r) => r.method === 'DELETE' && r.path === '/channels/caller-1'),
    ).toHaveLength(0);
    await second.app.stop();
  });
});

/** A machine written by hand with the runtime's call actors: answer, two digits, say them, hang up. */
const sayDigits = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle; digits: string } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call, digits: '' }),
  initial: 'answering',
  on: { StasisEnd: '.gone' },
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'asking' },
    },
    asking: {
      invoke: {
        src: 'collectDigits',
        input: ({ context }) => ({ call: context.call, maxDigits: 2, firstDigitTimeoutMs: 60_000 }),
        onDone: { target: 'telling', actions: assign({ digits: ({ event }) => event.output.digits }) },
      },
    },
    telling: {
      invoke: {
        src: 'play',
        input: ({ context }) => ({ call: context.call, media: `digits:${context.digits}` }),
        onDone: 'done',
      },
    },
    done: { type: 'final' },
    gone: { type: 'final' },
  },
});

/** Another, written by hand: answer, record a message (5 s), then connect the caller to the operator. */
const recordThenOperator = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  on: { StasisEnd: '.gone' },
  states: {
    answering: { invoke: { src: 'answer', onDone: 'recording' } },
    recording: { invoke: { src: 'record', input: { maxDurationSeconds: 5 }, onDone: 'connecting' } },
    connecting: { invoke: { src: 'bridgeWith', input: { endpoint: 'PJSIP/operator' }, onDone: 'talking' } },
    talking: {},
    gone: { type: 'final' },
  },
});

describe('a hand-written call machine restored from its record', () => {
  it('waiting for digits: the new application collects them and the call ends as an uninterrupted one', async () => {
    const script: Script = [{ at: 5000, press: '42' }];
    const straight = await runCall(script, undefined, { call: sayDigits });
    const moved = await runCall(script, 2000, { call: sayDigits });
    expect(JSON.stringify(moved.stateAtCut)).toBe('"asking"');
    expect(moved.requests).toEqual(straight.requests);
    expect(straight.requests.some((r) => r.includes('digits:42'))).toBe(true);
    expect(moved.ended.map((e) => e.outcome)).toEqual(['detached', 'completed']);
    expect(moved.store.size).toBe(0);
  });

  for (const [name, cutAt, state, once] of [
    ['while recording: the recording is not started again', 2000, 'recording', /\/record/],
    [
      'while dialling: no second call is placed, the leg that answers is bridged',
      7000,
      'connecting',
      /POST \/channels$/,
    ],
  ] as const)
    it(name, async () => {
      const script: Script = [{ at: 30_000, hangup: true }];
      const straight = await runCall(script, undefined, { call: recordThenOperator });
      const moved = await runCall(script, cutAt, { call: recordThenOperator });
      expect(JSON.stringify(moved.stateAtCut)).toBe(`"${state}"`);
      expect(moved.requests).toEqual(straight.requests);
      expect(moved.requests.filter((r) => once.test(r))).toHaveLength(1);
      expect(straight.requests.some((r) => r.includes('/addChannel'))).toBe(true);
      expect(moved.ended.map((e) => e.outcome)).toEqual(['detached', straight.last?.outcome]);
      expect(moved.store.size).toBe(0);
      expectNothingLeft(moved.app);
    });

  it('while playing: the prompt is not played again, and the call ends when it finishes', async () => {
    const script: Script = [{ at: 5000, press: '42' }];
    const straight = await runCall(script, undefined, { call: sayDigits });
    const moved = await runCall(script, 5600, { call: sayDigits });
    expect(JSON.stringify(moved.stateAtCut)).toBe('"telling"');
    expect(moved.requests).toEqual(straight.requests);
    expect(moved.requests.filter((r) => r.includes('digits:42'))).toHaveLength(1);
    expect(moved.ended.map((e) => e.outcome)).toEqual(['detached', 'completed']);
    expect(moved.store.size).toBe(0);
  });
});

const queueFlow = await loadFlowFile(new URL('../../flows/support-queue.yaml', import.meta.url).pathname);

describe('a caller restored while in a call queue (flows/support-queue.yaml)', () => {
  const call = createFlowCallMachine(queueFlow);
  // Agents by longest idle: 201 rings out (15 s), then 202 answers after 4 s, at 20.4 s.
  const endpoints = {
    'PJSIP/201': 'noAnswer',
    'PJSIP/202': { answerAfterMs: 4000 },
    'PJSIP/203': 'busy',
  } as const;
  const script: Script = [{ at: 60_000, hangup: true }];
  // Each process's queue follows the agents' devices when it opens (a subscription per agent):
  // the restoring process's own set-up, like its lookups, is not the call's.
  const callRequests = (requests: readonly string[]) =>
    requests.filter((r) => !/ POST \/applications\/[^/]+\/subscription$/.test(r));
  const agent = (app: Application, endpoint: string) =>
    app.queues.all()[0]?.state.agents.find((a) => a.endpoint === endpoint);

  it('while an agent rings for it: it rejoins with its place, the agent still offered, and the next agent is rung after', async () => {
    const straight = await runCall(script, undefined, { call, endpoints });
    const moved = await runCall(script, 8_000, { call, endpoints });
    expect(JSON.stringify(moved.stateAtCut)).toMatch(/welcome/);
    expect(callRequests(moved.requests)).toEqual(callRequests(straight.requests));
    expect(moved.requests.filter((r) => / POST \/channels\/#\d+$/.test(r))).toHaveLength(2); // 201, then 202
    expect(moved.ended.map((e) => e.outcome)).toEqual(['detached', straight.last?.outcome]);
    expect(moved.store.size).toBe(0);
  });

  it('while talking with an agent: the agent stays busy in the new process, then wraps up', async () => {
    const moved = await runCall(script, 30_000, { call, endpoints });
    const straight = await runCall(script, undefined, { call, endpoints });
    expect(callRequests(moved.requests)).toEqual(callRequests(straight.requests));
    // The conversation ended at 60 s (the caller hung up): the agent's last call is known.
    expect(agent(moved.app, 'PJSIP/202')).toMatchObject({ activity: 'idle' });
    expect(agent(moved.app, 'PJSIP/202')?.lastCallEndedAt).toBeGreaterThan(0);
    expect(agent(straight.app, 'PJSIP/202')?.lastCallEndedAt).toBe(
      agent(moved.app, 'PJSIP/202')?.lastCallEndedAt,
    );
  });
});
