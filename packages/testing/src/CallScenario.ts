import { AsyncLocalStorage } from 'node:async_hooks';
import { findModel, VirtualClock } from '@ringflow/client';
import {
  callFromStasisStart,
  compileFlow,
  type Flow,
  type FlowAri,
  type FlowHost,
  flowInputsOrThrow,
  formatDiagnostic,
  hostFromCall,
  parseFlow,
} from '@ringflow/dsl';
import {
  type AgentServices,
  type Application,
  type CallInput,
  createApplication,
  type StepFailure,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import {
  connectInProcess,
  createSimulator,
  formatTimestamp,
  type OutboundWebSockets,
  type Simulator,
  startOutboundWebSockets,
} from '@ringflow/simulator';
import { pino } from 'pino';
import type { AnyStateMachine } from 'xstate';
import { type ActionMatcher, compileActionMatcher } from './ActionMatcher.ts';
import {
  formatTimeline,
  type RecordedAction,
  type RecordedEvent,
  type TimelineEntry,
} from './CallTimeline.ts';
import { FlowExpectationError } from './FlowExpectationError.ts';
import { ScenarioAgents } from './agents/ScenarioAgents.ts';
import { FlowTestCall } from './FlowTestCall.ts';
import { FakeWebhooks, type WebhookExpectation, type WebhookRequest } from './http/FakeWebhooks.ts';
import type { Expected } from './matchValue.ts';
import { checkAction, checkNoAction, checkUserEvent } from './actionChecks.ts';
import { toMs } from './durations.ts';
import { operationOfRequest } from './operationOfRequest.ts';
import type {
  FarEndBehaviour,
  ScenarioCallOptions,
  ScenarioOptions,
  TestDuration,
  TestSound,
} from './TestCallOptions.ts';

const DEFAULT_START = Date.UTC(2026, 0, 5, 10, 0); // a Monday, 11:00 in Paris
const DEFAULT_FAR_END_ANSWER_MS = 2000;
const DEFAULT_APP = 'flow-test';
/** With `realTime`, virtual time follows the wall in steps this long (one media frame). */
const REAL_TIME_STEP_MS = 20;

/** A Local channel endpoint: `Local/<extension>@<context>`. */
const LOCAL = /^Local\/([^@/]+)@([^/]+)$/;

/** Request parameters that name a resource a call's flow created or uses. */
const RESOURCE_PARAMS = ['channelId', 'otherChannelId', 'snoopId', 'playbackId', 'recordingName', 'name'];

/**
 * The endpoints of the scenario's server: those of `farEnds` with their behaviour, and the phones
 * of far-end parties (`answers`), which answer by `farEnds` too (by default after 2 s). A party
 * that is another flow is reached through a Local channel, which needs no endpoint.
 */
function scenarioEndpoints(
  farEnds: Readonly<Record<string, FarEndBehaviour>>,
  plans: readonly CallPlan[],
): Record<string, FarEndBehaviour> {
  const endpoints: Record<string, FarEndBehaviour> = {};
  for (const plan of plans)
    if (plan.answers !== undefined && !plan.answers.startsWith('Local/')) endpoints[plan.answers] = 'answer';
  return { ...endpoints, ...farEnds };
}

function startTime(value: ScenarioOptions['startAt']): number {
  if (value === undefined) return DEFAULT_START;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms))
    throw new TypeError(
      `startAt: expected a time such as 2026-01-05T10:00:00Z, got ${JSON.stringify(value)}`,
    );
  return ms;
}

/** What one caller (or far-end party) of the scenario is, once its defaults are filled in. */
interface CallPlan {
  readonly name: string;
  /** The caller's channel; a far-end party's is the dialled channel, known once it rings. */
  channelId: string;
  /** A far end: the endpoint whose dialled channel is this party's (see ScenarioCallOptions.answers). */
  readonly answers?: string;
  readonly options: ScenarioCallOptions;
  readonly app: string;
  readonly context: string;
  readonly extension: string;
  readonly atMs: number;
  /** The flow inputs of the call (the scenario's, then its own), converted to their declared types. */
  readonly inputs: Readonly<Record<string, unknown>>;
}

/**
 * The dialplan that brings each test call into its flow's application, its channel variables set
 * first: one context per distinct way in (extension, variables, arguments, application).
 */
function testDialplan(plans: readonly CallPlan[], extra: string | undefined): string {
  const written = new Set<string>();
  const parts: string[] = [];
  for (const plan of plans) {
    // A far end that is another flow: the Local channel the flow dials enters that flow's application.
    const local =
      plan.answers !== undefined && plan.options.flow !== undefined ? LOCAL.exec(plan.answers) : null;
    if (local) {
      parts.push(`[${local[2]}]\nexten => ${local[1]},1,Stasis(${plan.app})\n same => n,Hangup()`);
      continue;
    }
    if (plan.answers !== undefined || written.has(plan.context)) continue;
    written.add(plan.context);
    const { options, extension, app } = plan;
    if (!/^[0-9A-Za-z*#+]+$/.test(extension))
      throw new TypeError(
        `extension: expected digits, letters, *, # or + (the number dialled), got ${JSON.stringify(extension)}`,
      );
    const lines = [`[${plan.context}]`, `exten => ${extension},1,NoOp(flow test call)`];
    for (const [name, value] of Object.entries(options.variables ?? {})) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
        throw new TypeError(`variables: '${name}' is not a channel variable name (letters, digits, _)`);
      if (/[\n\r]|\$\{/.test(String(value)))
        throw new TypeError(`variables.${name}: a value cannot contain a line break or \${...}`);
      lines.push(` same => n,Set(${name}=${String(value)})`);
    }
    for (const arg of options.args ?? [])
      if (/[,()\n]/.test(arg)) throw new TypeError(`args: '${arg}' cannot contain , ( ) or a line break`);
    lines.push(` same => n,Stasis(${[app, ...(options.args ?? [])].join(',')})`, ' same => n,Hangup()');
    parts.push(lines.join('\n'));
  }
  return `${parts.join('\n\n')}\n\n${extra ?? ''}\n`;
}

/** Calls that share extension, variables, arguments and application share a dialplan context. */
function contextKey(options: ScenarioCallOptions, app: string, extension: string): string {
  return JSON.stringify([extension, app, options.variables ?? {}, options.args ?? []]);
}

function planCalls(flow: Flow, options: ScenarioOptions, mainApp: string): CallPlan[] {
  const names = Object.keys(options.calls);
  if (names.length === 0)
    throw new TypeError('calls: give at least one call, e.g. { calls: { caller: {} } }');
  const contexts = new Map<string, string>();
  const ids = new Set<string>();
  return names.map((name, i) => {
    const call = options.calls[name]!;
    if (call.flow !== undefined && options.flows?.[call.flow] === undefined)
      throw new TypeError(
        `calls.${name}.flow: no flow named "${call.flow}"; the scenario's flows are: ${Object.keys(options.flows ?? {}).join(', ') || 'none besides the main one'}`,
      );
    const entered = call.flow === undefined ? flow : options.flows![call.flow]!;
    if (call.answers !== undefined && !/^[^/\s]+\/[^/\s]+$/.test(call.answers))
      throw new TypeError(
        `calls.${name}.answers: expected an endpoint written tech/resource, e.g. PJSIP/agent`,
      );
    const channelId = call.answers !== undefined ? '' : (call.channelId ?? `c${i + 1}`);
    if (channelId !== '' && ids.has(channelId))
      throw new TypeError(`calls.${name}.channelId: "${channelId}" is used twice`);
    ids.add(channelId);
    const app = call.flow ?? mainApp;
    const extension = call.extension ?? '100';
    const key = contextKey(call, app, extension);
    if (!contexts.has(key))
      contexts.set(key, contexts.size === 0 ? 'ringflow-test' : `ringflow-test-${contexts.size + 1}`);
    return {
      name,
      channelId,
      ...(call.answers !== undefined ? { answers: call.answers } : {}),
      options: call,
      app,
      context: contexts.get(key)!,
      extension,
      atMs: call.at === undefined ? 0 : toMs(call.at, `calls.${name}.at`),
      // Typed before the call starts: `maxAttempts: "3"` is the number 3, a misfit an error now.
      inputs: flowInputsOrThrow(entered.document.name, entered.document.inputs ?? {}, {
        ...options.inputs,
        ...call.inputs,
      }),
    };
  });
}

/**
 * A flow's view of the server with each request made inside the storage's context of its call,
 * so that the scenario can tell whose request reached the simulator (several calls run in one
 * application and share its client).
 */
function labelledAri(ari: FlowAri, storage: AsyncLocalStorage<string>, call: string): FlowAri {
  // Views over fresh targets: the runtime's resource APIs are frozen, and may be prototype getters.
  const calls = (api: object) =>
    new Proxy(
      {},
      {
        get(_, key) {
          const value = Reflect.get(api, key, api) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => storage.run(call, () => value.apply(api, args));
        },
      },
    );
  return new Proxy({} as FlowAri, {
    get(_, resource) {
      const api = Reflect.get(ari, resource, ari) as unknown;
      return typeof api === 'object' && api !== null ? calls(api) : api;
    },
  });
}

/**
 * One or several calls running flows on the in-process simulator, through the real runtime, in
 * virtual time: the world of a flow test. Start it with {@link testCalls} (several callers) or
 * `testFlow` (one). The test drives each caller through its {@link FlowTestCall} (`press`,
 * `hangUp`, `talk`), lets time pass (`wait`), injects server events, and checks what the flows did
 * to each call or to the room (`expectBridge`, `expectServer`, and any call's actions). A failing
 * expectation throws a {@link FlowExpectationError} showing every call's timeline, interleaved.
 */
export class CallScenario {
  readonly clock: VirtualClock;
  readonly simulator: Simulator;
  readonly app: Application;
  /** The agent steps' bots, the callers' words to them and what they said (see ScenarioAgents). */
  readonly agents: ScenarioAgents;
  /** The flows' webhooks, answered as `http` says (absent without it: `fetch`, or the global one). */
  readonly webhooks: FakeWebhooks | undefined;
  private readonly mainFlow: Flow;
  private readonly mainApp: string;
  private readonly plans: readonly CallPlan[];
  private readonly calls = new Map<string, FlowTestCall>();
  private readonly entries: TimelineEntry[] = [];
  private readonly deliverers: ((event: Record<string, unknown>) => void)[] = [];
  private readonly whoseRequest = new AsyncLocalStorage<string>();
  /** Time passes as on the wall (`realTime`: a bot on a real socket). */
  private readonly realTime: boolean;
  /** The call whose flow first named each resource id (a dialled channel, a playback...). */
  private readonly resourceCalls = new Map<string, string>();
  private readonly farEnds: Readonly<Record<string, FarEndBehaviour>>;
  /** With the `socket` and `per-call` transports: the server's connections to the application. */
  private outbound: OutboundWebSockets | undefined;
  private t0 = 0;
  private started = false;
  private closed = false;

  private constructor(flow: Flow, options: ScenarioOptions) {
    this.mainFlow = flow;
    const mainApp = options.app ?? DEFAULT_APP;
    this.mainApp = mainApp;
    for (const name of Object.keys(options.flows ?? {}))
      if (name === mainApp) throw new TypeError(`flows: "${name}" is the main flow's application name`);
    this.plans = planCalls(flow, options, mainApp);
    this.clock = new VirtualClock(startTime(options.startAt));
    this.farEnds = options.farEnds ?? {};
    if (options.http !== undefined && options.fetch !== undefined)
      throw new TypeError('give http (answers the scenario gives) or fetch (your own), not both');
    this.webhooks =
      options.http === undefined
        ? undefined
        : new FakeWebhooks(options.http, {
            clock: this.clock,
            elapsed: () => this.elapsed(),
            record: (entry) => this.record(entry),
          });
    this.simulator = createSimulator({
      clock: this.clock,
      dialplan: { text: testDialplan(this.plans, options.dialplan), file: 'flow-test.conf' },
      ...(options.sounds?.length ? { sounds: { extraSounds: options.sounds.map(soundSpec) } } : {}),
      // The server has the endpoints the scenario configures, each behaving as it says.
      endpoints: scenarioEndpoints(this.farEnds, this.plans),
      answerOutboundAfterMs: DEFAULT_FAR_END_ANSWER_MS,
    });
    this.simulator.driver.onEvent((event) => {
      if (event.type === 'Dial' && event.dialstatus === 'RINGING') this.onRinging(event);
    });
    const apps = [mainApp, ...Object.keys(options.flows ?? {})];
    const sim = this.simulator;
    const recorded = {
      handle: async (request: Parameters<Simulator['handle']>[0]) => {
        const action = this.started ? this.recordAction(request) : undefined;
        const reply = await sim.handle(request);
        if (action) action.status = reply.status;
        return reply;
      },
      connectEvents: (
        request: Parameters<Simulator['connectEvents']>[0],
        deliver: (event: Record<string, unknown>) => void,
      ) => {
        const tap = (event: Record<string, unknown>) => {
          if (this.started) this.recordEvent(event, false);
          deliver(event);
        };
        // A per-call connection names the application `<app>:<channel name>`.
        if (request.apps.some((app) => apps.includes(baseApp(app)))) this.deliverers.push(deliver);
        return sim.connectEvents(request, tap);
      },
    };
    // The server the outbound connections serve: the simulator, with requests and events recorded.
    const recordedSimulator = new Proxy(sim, {
      get(target, key) {
        if (key === 'handle') return recorded.handle;
        if (key === 'connectEvents') return recorded.connectEvents;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const transport = options.transport ?? 'http';
    const machines = new Map<string, AnyStateMachine>();
    machines.set(mainApp, this.machineFor(flow, options));
    for (const [name, other] of Object.entries(options.flows ?? {}))
      machines.set(name, this.machineFor(other, options));
    let n = 0;
    const connection = transport === 'http' ? undefined : transport;
    this.app = createApplication({
      servers: connection
        ? []
        : [
            {
              url: 'http://simulator/ari',
              username: 'flow',
              password: 'test',
              restTransport: inProcessRestTransport(recorded),
              eventTransport: inProcessEventTransport(recorded),
              eventStream: { pingIntervalMs: 0 },
            },
          ],
      ...(connection
        ? {
            // The server dials the application, through in-memory pipes instead of sockets.
            listen: {
              port: 0,
              accept: (onConnection) => {
                const listener = connectInProcess({}, onConnection);
                this.outbound = startOutboundWebSockets(recordedSimulator, {
                  connections: [
                    {
                      connectionType: connection === 'socket' ? 'persistent' : 'per_call_config',
                      uri: 'ws://in-process/',
                      apps,
                    },
                  ],
                  dial: listener.dial,
                });
                return listener;
              },
            },
          }
        : {}),
      apps,
      call: (info) => machines.get(info.app) ?? machines.get(mainApp)!,
      clock: this.clock,
      ids: () => String(++n),
      logger: pino({ level: 'silent' }),
    });
    this.agents = new ScenarioAgents(this, options.bot, this.app.metrics.agents);
    this.realTime = options.realTime === true;
    for (const plan of this.plans)
      this.calls.set(
        plan.name,
        new FlowTestCall(
          this,
          plan.name,
          plan.channelId,
          flowOf(plan, flow, options),
          plan.answers === undefined
            ? undefined
            : { answers: plan.answers, runsFlow: plan.options.flow !== undefined },
        ),
      );
  }

  /** The machine of one flow: each call's inputs and channel variables, its requests labelled. */
  private machineFor(flow: Flow, options: ScenarioOptions): AnyStateMachine {
    return compileFlow(flow, {
      adaptInput: (raw) => {
        const { call } = raw as CallInput;
        const info = callFromStasisStart(call.start);
        const plan = this.plans.find((p) => p.channelId === info.channelId);
        // The scenario's webhooks know whose flow asked.
        const fetch = this.webhooks?.fetchFor(plan?.name) ?? options.fetch;
        const host = hostFromCall(call, fetch ? { fetch } : {});
        const report = (failure: StepFailure) => {
          this.entries.push({
            kind: 'failure',
            at: this.elapsed(),
            ...(plan ? { call: plan.name } : {}),
            failure,
          });
          if (plan) this.calls.get(plan.name)?.failed(failure);
          host.reportFailure?.(failure);
        };
        return {
          host: labelled(
            host,
            plan ? labelledAri(host.ari, this.whoseRequest, plan.name) : host.ari,
            report,
            this.agents.servicesFor(plan?.name ?? info.channelId),
          ),
          call: { ...info, variables: { ...plan?.options.variables, ...info.variables } },
          input: plan?.inputs ?? options.inputs ?? {},
        };
      },
    });
  }

  /** @internal Use {@link testCalls} or `testFlow`. */
  static async start(flow: Flow, options: ScenarioOptions): Promise<CallScenario> {
    const scenario = new CallScenario(flow, options);
    await scenario.app.start();
    // A persistent connection is dialled at start-up: calls arrive once it is open.
    await scenario.outbound?.whenConnected();
    await scenario.clock.advance(0);
    scenario.app.calls$.subscribe((session) => {
      const call = [...scenario.calls.values()].find((c) => c.channelId === session.channelId);
      if (call) {
        call.watch(session);
        return;
      }
      // A far end that runs a flow: the first call entering its flow's application is it.
      const party = scenario.plans.find(
        (p) =>
          p.answers !== undefined &&
          p.options.flow === baseApp(session.application ?? '') &&
          p.channelId === '',
      );
      if (!party) return;
      party.channelId = session.channelId;
      const farEnd = scenario.calls.get(party.name)!;
      farEnd.dialled(session.channelId, scenario.elapsed());
      farEnd.watch(session);
    });
    scenario.t0 = scenario.clock.now();
    scenario.started = true;
    for (const plan of scenario.plans) {
      if (plan.answers !== undefined) continue; // a far end: it arrives when a flow dials it
      if (plan.atMs === 0) scenario.place(plan);
      else scenario.clock.setTimeout(() => scenario.place(plan), plan.atMs);
    }
    await scenario.clock.advance(0);
    return scenario;
  }

  private place(plan: CallPlan): void {
    const { options } = plan;
    this.calls.get(plan.name)!.placed(this.elapsed());
    this.simulator.driver.placeCall({
      channelId: plan.channelId,
      from: options.caller ?? '5551234',
      ...(options.callerName !== undefined ? { callerName: options.callerName } : {}),
      to: plan.extension,
      context: plan.context,
      ...(options.language !== undefined ? { language: options.language } : {}),
    });
  }

  /** One caller, by its name in `calls`. */
  call(name: string): FlowTestCall {
    const call = this.calls.get(name);
    if (!call)
      throw new TypeError(
        `no call named "${name}"; the scenario's calls are: ${[...this.calls.keys()].join(', ')}`,
      );
    return call;
  }

  /** Every caller, in the order they were given. */
  get callers(): readonly FlowTestCall[] {
    return [...this.calls.values()];
  }

  /** The main flow (the one calls enter unless they name another). */
  get flow(): Flow {
    return this.mainFlow;
  }

  /** Virtual milliseconds since the scenario started. */
  elapsed(): number {
    return this.clock.now() - this.t0;
  }

  /** @internal Adds an entry to the timeline (the calls record their states and notes here). */
  record(entry: TimelineEntry): void {
    this.entries.push(entry);
  }

  private callOfChannel(channelId: unknown): string | undefined {
    if (typeof channelId !== 'string' || channelId === '') return undefined;
    return this.plans.find((p) => p.channelId === channelId)?.name;
  }

  private recordAction(request: {
    method: string;
    path: string;
    query: Readonly<Record<string, string>>;
    body?: unknown;
  }): RecordedAction {
    const recognised = operationOfRequest(request.method, request.path);
    const body =
      request.body !== null && typeof request.body === 'object'
        ? (request.body as Record<string, unknown>)
        : {};
    const params = { ...recognised?.pathParams, ...request.query, ...body };
    // A flow's request says whose it is; the runtime's own (a hangup of a dialled channel at the
    // end of its call) is the call's whose flow named that resource first.
    const labelled = this.whoseRequest.getStore();
    const ids = RESOURCE_PARAMS.map((k) => params[k]).filter((v): v is string => typeof v === 'string');
    if (labelled !== undefined)
      for (const id of ids) if (!this.resourceCalls.has(id)) this.resourceCalls.set(id, labelled);
    const call =
      labelled ??
      this.callOfChannel(params.channelId) ??
      ids.map((id) => this.resourceCalls.get(id)).find((c) => c !== undefined);
    const action: RecordedAction = {
      kind: 'action',
      at: this.elapsed(),
      ...(call !== undefined ? { call } : {}),
      method: request.method,
      path: request.path,
      ...(recognised ? { operation: recognised.operation } : {}),
      params,
      query: request.query,
      ...(request.body !== undefined ? { body: request.body } : {}),
    };
    this.entries.push(action);
    return action;
  }

  private recordEvent(event: Record<string, unknown>, injected: boolean): void {
    const call = this.callOfChannel((event.channel as { id?: unknown } | undefined)?.id);
    this.entries.push({
      kind: 'event',
      at: this.elapsed(),
      ...(call !== undefined ? { call } : {}),
      type: String(event.type),
      event,
      injected,
    });
  }

  private onRinging(event: Readonly<Record<string, unknown>>): void {
    const peer = event.peer as { id: string; name: string } | undefined;
    if (!peer) return;
    const endpoint = peer.name.replace(/-[^-/]*$/, '');
    // A far-end party of the scenario takes the dialled channel (the latest dial to its phone).
    const party = this.plans.find((p) => p.answers === endpoint);
    // A far end that is another flow answers by itself (its flow's answer step), on the Local
    // channel's other half: it is bound when that half enters its application.
    if (party?.options.flow !== undefined) return;
    if (party) {
      party.channelId = peer.id;
      this.calls.get(party.name)!.dialled(peer.id, this.elapsed());
      this.note(`${endpoint} rings`, party.name);
    }
    // The far end then answers, refuses or keeps ringing as its endpoint is configured (farEnds).
  }

  // --- Driving the world ----------------------------------------------------------------------

  /**
   * Lets virtual time pass (prompts play, timeouts fire, later callers arrive).
   * @example await scenario.wait('6s');
   */
  async wait(duration: TestDuration): Promise<void> {
    await this.passTime(toMs(duration, 'wait'));
  }

  /**
   * @internal Lets `ms` of scenario time pass: at once in virtual time, or, with `realTime`, in
   * 20 ms steps each taken once as much wall time has passed (a bot on a real socket answers).
   */
  async passTime(ms: number): Promise<void> {
    if (!this.realTime) return this.clock.advance(ms);
    const wallStart = Date.now();
    const from = this.clock.now();
    const until = from + ms;
    while (this.clock.now() < until) {
      const next = Math.min(until, this.clock.now() + REAL_TIME_STEP_MS);
      const wait = wallStart + (next - from) - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await this.clock.advanceTo(next);
    }
    await this.clock.advance(0);
  }

  /** @internal A note in the timeline (what a caller did). */
  note(text: string, call?: string): void {
    this.entries.push({ kind: 'caller', at: this.elapsed(), ...(call !== undefined ? { call } : {}), text });
  }

  /**
   * Every live channel dialled to `endpoint` (`PJSIP/operator`) hangs up: the far end of a dial.
   * @example await scenario.hangUpFarEnd('PJSIP/operator');
   */
  async hangUpFarEnd(endpoint: string): Promise<void> {
    const channels = await this.list<{ id: string; name: string }>('/channels');
    const theirs = channels.filter((c) => c.name.startsWith(`${endpoint}-`));
    if (theirs.length === 0) {
      this.fail(
        `a live channel to ${endpoint} to hang up`,
        `there is none (live channels: ${channels.map((c) => c.name).join(', ') || 'none'})`,
      );
    }
    this.note(`${endpoint} hangs up`);
    for (const c of theirs) this.simulator.driver.hangup(c.id);
    await this.clock.advance(0);
  }

  /**
   * Delivers an event to the flows' applications as if the server sent it. `application`,
   * `timestamp` and `asterisk_id` are filled in; so is `channel` (the channel of `about`, as it is
   * now) when the event type carries a channel and none is given.
   *
   * @example await scenario.inject({ type: 'ChannelUserevent', eventname: 'Escalate', userevent: {} });
   */
  async inject(
    event: { readonly type: string } & Readonly<Record<string, unknown>>,
    about?: FlowTestCall,
  ): Promise<void> {
    if (typeof event.type !== 'string' || event.type === '')
      throw new TypeError(
        'inject: the event needs a type, e.g. { type: "ChannelUserevent", eventname: "X" }',
      );
    const full: Record<string, unknown> = {
      ...event,
      application: this.mainApp,
      timestamp: formatTimestamp(this.clock.now()),
      asterisk_id: this.simulator.asteriskId,
    };
    const target = about ?? (this.calls.size === 1 ? this.callers[0] : undefined);
    if (
      full.channel === undefined &&
      target !== undefined &&
      findModel(event.type)?.properties.channel !== undefined
    ) {
      const reply = await this.simulator.handle({
        method: 'GET',
        path: `/channels/${encodeURIComponent(target.channelId)}`,
        query: {},
      });
      full.channel = reply.status === 200 ? reply.body : { id: target.channelId };
    }
    this.recordEvent(full, true);
    for (const deliver of this.deliverers) deliver(full);
    await this.clock.advance(0);
  }

  /**
   * Lets virtual time run until `done()` holds or `limit` (scenario time) passes; then lets the
   * handlers due at that instant run.
   */
  async runUntil(done: () => boolean, limit: number): Promise<void> {
    if (this.realTime) {
      while (!done() && this.elapsed() < limit)
        await this.passTime(Math.min(REAL_TIME_STEP_MS, limit - this.elapsed()));
      await this.clock.advance(0);
      return;
    }
    while (!done()) {
      const due = this.clock.nextDue();
      if (due === undefined || due > this.t0 + limit) {
        if (this.elapsed() < limit && due !== undefined) await this.clock.advanceTo(this.t0 + limit);
        break;
      }
      await this.clock.advanceTo(due);
    }
    await this.clock.advance(0);
  }

  // --- What happened --------------------------------------------------------------------------

  /** The REST requests every flow made, oldest first (each with the `call` it was made for). */
  actions(matcher?: ActionMatcher): RecordedAction[] {
    const all = this.entries.filter((e): e is RecordedAction => e.kind === 'action');
    if (matcher === undefined) return all;
    const compiled = compileActionMatcher(matcher);
    return all.filter((a) => compiled.matches(a));
  }

  /** The events the flows' applications received (injected ones included), oldest first. */
  events(type?: string): RecordedEvent[] {
    return this.entries.filter(
      (e): e is RecordedEvent => e.kind === 'event' && (type === undefined || e.type === type),
    );
  }

  /** Everything that happened to every call, oldest first, with virtual times from the scenario's start. */
  timeline(): readonly TimelineEntry[] {
    return [...this.entries].sort((a, b) => a.at - b.at);
  }

  /** The timeline as text, each line labelled with its call when there are several. */
  formatTimeline(): string {
    return formatTimeline(this.timeline());
  }

  // --- Expectations about the room and the server ----------------------------------------------

  /** @internal Throws a FlowExpectationError with every call's timeline. */
  fail(expected: string, happened: string): never {
    throw new FlowExpectationError(expected, happened, this.timeline());
  }

  /**
   * Checks that some flow made a REST action (by now), whichever call it was for; `times` asks for
   * an exact count. Returns the matching actions.
   * @example scenario.expectAction({ operation: 'bridges.play', params: { media: /conf-hasjoin/ } });
   */
  expectAction(matcher: ActionMatcher, options: { times?: number } = {}): RecordedAction[] {
    return checkAction(this.actions(), matcher, options, (e, h) => this.fail(e, h));
  }

  /** Checks that no flow made such a REST action (by now). */
  expectNoAction(matcher: ActionMatcher): void {
    checkNoAction(this.actions(), matcher, (e, h) => this.fail(e, h));
  }

  /** Checks that some flow raised a user event, with these variables (partial). */
  expectUserEvent(name: string, variables?: Readonly<Record<string, Expected>>): RecordedAction[] {
    return checkUserEvent(this.actions(), name, variables, (e, h) => this.fail(e, h));
  }

  /**
   * Checks a bridge on the server now: found by `id` (or by `name`), holding exactly these calls
   * (by name or channel id, any order). `calls: []` asks for an empty bridge.
   * @example await scenario.expectBridge({ id: 'ringflow-sales-weekly', calls: ['moderator', 'member'] });
   */
  async expectBridge(expected: {
    readonly id?: string;
    readonly name?: string;
    readonly calls?: readonly string[];
  }): Promise<void> {
    const bridges = await this.list<{ id: string; name: string; channels: string[] }>('/bridges');
    const wanted = expected.id ?? expected.name;
    const describe = `a bridge ${expected.id !== undefined ? `with id ${expected.id}` : `named ${expected.name ?? '(any)'}`}`;
    const bridge = bridges.find((b) =>
      expected.id !== undefined
        ? b.id === expected.id
        : expected.name === undefined || b.name === expected.name,
    );
    const listing = bridges.map((b) => `${b.id} [${b.channels.map((c) => this.callName(c)).join(', ')}]`);
    if (!bridge)
      this.fail(
        describe,
        `there is none${wanted === undefined ? '' : ` by that ${expected.id !== undefined ? 'id' : 'name'}`} (bridges: ${listing.join('; ') || 'none'})`,
      );
    if (expected.calls === undefined) return;
    const want = expected.calls.map((c) => this.channelOf(c)).sort();
    const have = [...bridge.channels].sort();
    if (want.length !== have.length || want.some((c, i) => c !== have[i]))
      this.fail(
        `${describe} holding ${expected.calls.length === 0 ? 'nobody' : expected.calls.join(', ')}`,
        `it holds ${bridge.channels.map((c) => this.callName(c)).join(', ') || 'nobody'}`,
      );
  }

  /**
   * Checks the webhook requests the flows made by now (`http` answers them): those `key` names
   * (`"POST https://crm.example/tickets"`, matched as answers are), carrying what `expected` says
   * (`json`, `body`, `headers`), at least once or exactly `times`; `call` keeps one caller's.
   * @example scenario.expectWebhook('POST https://crm.example/tickets', { times: 1, json: { order: '1234' } });
   */
  expectWebhook(key: string, expected: WebhookExpectation = {}, call?: string): WebhookRequest[] {
    if (!this.webhooks)
      this.fail(
        `a request ${key}`,
        "this scenario's webhooks are not the scenario's to answer (give http: { ... } instead of fetch)",
      );
    return this.webhooks.expect(key, expected, (e, h) => this.fail(e, h), call);
  }

  /** Checks that every webhook request the flows made was answered by `http` (none unmatched). */
  expectWebhooksAnswered(): void {
    this.webhooks?.checkAnswered((e, h) => this.fail(e, h));
  }

  /**
   * Checks what is left on the server now: numbers of channels, bridges and live recordings.
   * @example await scenario.expectServer({ channels: 0, bridges: 0, liveRecordings: 0 });
   */
  async expectServer(expected: {
    readonly channels?: number;
    readonly bridges?: number;
    readonly liveRecordings?: number;
  }): Promise<void> {
    const found = {
      channels: await this.list<{ id: string; name: string }>('/channels'),
      bridges: await this.list<{ id: string }>('/bridges'),
      liveRecordings: this.simulator.liveRecordings,
    };
    const problems: string[] = [];
    for (const key of ['channels', 'bridges', 'liveRecordings'] as const) {
      const want = expected[key];
      const list = found[key] as readonly unknown[];
      if (want !== undefined && list.length !== want)
        problems.push(`${list.length} ${key} (${list.map((x) => describeResource(x)).join(', ')})`);
    }
    if (problems.length > 0)
      this.fail(
        `on the server: ${Object.entries(expected)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')}`,
        `there are ${problems.join('; ')}`,
      );
  }

  private async list<T>(path: string): Promise<T[]> {
    const reply = await this.simulator.handle({ method: 'GET', path, query: {} });
    return (reply.body as T[]) ?? [];
  }

  private callName(channelId: string): string {
    return this.callOfChannel(channelId) ?? channelId;
  }

  private channelOf(nameOrChannel: string): string {
    return this.calls.get(nameOrChannel)?.channelId ?? nameOrChannel;
  }

  /** Stops the application and the simulator. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const call of this.calls.values()) call.stopWatching();
    // The server stops dialling first, or it would re-dial the connections the application closes.
    await this.outbound?.close();
    await this.app.stop();
    this.simulator.close();
  }

  /** For `await using scenario = await testCalls(...)`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** `flow-test:PJSIP/5551234-00000001` -> `flow-test`: the application a per-call connection serves. */
function baseApp(application: string): string {
  const colon = application.indexOf(':');
  return colon > 0 ? application.slice(0, colon) : application;
}

/** A test's sound as the simulator's catalogue takes it (formats: each language, in slin). */
function soundSpec(sound: TestSound) {
  return {
    id: sound.name,
    durationMs: toMs(sound.duration, `sounds.${sound.name}.duration`),
    ...(sound.languages
      ? { formats: sound.languages.map((language) => ({ language, format: 'slin' })) }
      : {}),
  };
}

function describeResource(value: unknown): string {
  if (typeof value === 'string') return value;
  const r = value as { name?: string; id?: string };
  return r.name ?? r.id ?? JSON.stringify(value);
}

function flowOf(plan: CallPlan, main: Flow, options: ScenarioOptions): Flow {
  return plan.options.flow === undefined ? main : options.flows![plan.options.flow]!;
}

/**
 * A host whose requests are labelled with their call (see {@link labelledAri}) and whose step
 * failures reach the scenario's timeline first; the rest as is.
 */
function labelled(
  host: FlowHost,
  ari: FlowAri,
  reportFailure: (failure: StepFailure) => void,
  agents: AgentServices,
): FlowHost {
  return new Proxy({} as FlowHost, {
    get(_, key) {
      if (key === 'ari') return ari;
      if (key === 'agents') return agents;
      if (key === 'reportFailure') return reportFailure;
      const value = Reflect.get(host, key, host) as unknown;
      return typeof value === 'function' ? value.bind(host) : value;
    },
  });
}

/** Reads a YAML flow file for a test, with its errors as one readable message. */
export async function loadFlowForTest(path: string): Promise<Flow> {
  const { readFile } = await import('node:fs/promises');
  const result = parseFlow(await readFile(path, 'utf8'), path);
  if (!result.ok)
    throw new TypeError(
      `the flow ${path} has errors:\n${result.diagnostics.map((d) => formatDiagnostic(d)).join('\n')}`,
    );
  return result.flow;
}

/**
 * Starts a scenario with several calls running a flow on the in-process simulator, in virtual
 * time: each caller arrives at its `at` (default at once) and is driven through
 * `scenario.call(name)`. `flow` is a loaded flow or the path of a YAML flow file.
 *
 * @example
 * const room = await testCalls('flows/conference.yaml', {
 *   calls: { moderator: { caller: '5551000' }, member: { caller: '5552000', at: '2s' } },
 * });
 * await room.wait('3s');
 * await room.call('member').press('5678');
 * await room.call('moderator').press('1234');
 * await room.wait('5s');
 * await room.expectBridge({ id: 'ringflow-sales-weekly', calls: ['moderator', 'member'] });
 * await room.close();
 */
export async function testCalls(flow: Flow | string, options: ScenarioOptions): Promise<CallScenario> {
  const loaded = typeof flow === 'string' ? await loadFlowForTest(flow) : flow;
  return CallScenario.start(loaded, options);
}
