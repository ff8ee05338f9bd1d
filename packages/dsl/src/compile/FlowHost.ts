import type {
  BridgesApi,
  ChannelsApi,
  Clock,
  DeviceStatesApi,
  EndpointsApi,
  EventsApi,
  MailboxesApi,
  PlaybacksApi,
  RecordingsApi,
} from '@ringflow/client';
import type { AgentServices, QueueSettings, StepFailure } from '@ringflow/runtime';

/**
 * The REST operations a compiled flow uses, shaped exactly like the resource APIs of
 * `@ringflow/client` (a client instance satisfies it as is). Kept narrow so that tests and other
 * runtimes can provide it, and so a reader sees at a glance what a flow can do to a server.
 */
export interface FlowAri {
  readonly channels: Pick<
    ChannelsApi,
    | 'answer'
    | 'hangup'
    | 'play'
    | 'record'
    | 'continueInDialplan'
    | 'originate'
    | 'originateWithId'
    | 'getChannelVar'
    | 'setChannelVar'
    | 'hold'
    | 'unhold'
    | 'mute'
    | 'unmute'
    | 'ring'
    | 'ringStop'
    | 'startSilence'
    | 'stopSilence'
    | 'startMoh'
    | 'stopMoh'
    | 'snoopChannelWithId'
    | 'externalMedia'
    | 'redirect'
  >;
  readonly bridges: Pick<
    BridgesApi,
    | 'get'
    | 'createWithId'
    | 'destroy'
    | 'addChannel'
    | 'removeChannel'
    | 'playWithId'
    | 'startMoh'
    | 'stopMoh'
    | 'setVideoSource'
    | 'clearVideoSource'
    | 'record'
  >;
  readonly playbacks: Pick<PlaybacksApi, 'stop'>;
  readonly recordings: Pick<RecordingsApi, 'stop'>;
  readonly events: Pick<EventsApi, 'userEvent'>;
  readonly endpoints: Pick<EndpointsApi, 'sendMessage'>;
  readonly deviceStates: Pick<DeviceStatesApi, 'update'>;
  readonly mailboxes: Pick<MailboxesApi, 'update'>;
}

/** A call queue as one call's flow uses it (the runtime's `CallQueue`, bound to the call). */
export interface FlowQueue {
  /**
   * Joins at the end; an offer (`ringflow.queue.offer`) or `ringflow.queue.noAgents` may follow.
   * A call restored in a new process joins again with its join time and the agents it was ringing.
   */
  join(restored?: { readonly joinedAt: number; readonly ringing: readonly string[] }): void;
  /** A call restored in a new process was talking with `agent`: the agent stays busy. */
  talking(agent: string): void;
  /** Leaves without an agent. */
  leave(reason: 'timeout' | 'exited' | 'abandoned'): void;
  /** The agent offered answered: the caller leaves the queue, the agent talks. */
  answered(agent: string): void;
  /** Nobody offered answered: the caller waits on. */
  unanswered(): void;
  /** The agent's call with this caller ended: it wraps up. */
  agentFree(agent: string): void;
  /**
   * Logs an agent in or out, pauses or resumes it; returns the device state that shows the
   * agent's status on the server, for the flow to publish.
   */
  agent(
    endpoint: string,
    action: 'login' | 'logout' | 'pause' | 'unpause',
  ): { readonly device: string; readonly state: 'NOT_INUSE' | 'ONHOLD' | 'UNAVAILABLE' };
  /** The call's place in the queue (1 = next; 0 when not waiting). */
  position(): number;
  /** What callers waited lately before an answer; undefined before the first. */
  expectedWaitMs(): number | undefined;
  /** How many callers wait; a host without the count leaves it out. */
  waiting?(): number;
  /** How many agents could answer now; a host without the count leaves it out. */
  agentsFree?(): number;
}

/**
 * The levels a flow logs at, shaped like pino's so a call's logger fits as is.
 * @example const log: FlowLog = { warn: (details, message) => logger.warn(details, message) };
 */
export interface FlowLog {
  warn(details: Record<string, unknown>, message: string): void;
  debug?(details: Record<string, unknown>, message: string): void;
}

/** Where a running flow gets its effects from: one per call (or shared by an application). */
export interface FlowHost {
  readonly ari: FlowAri;
  /** The runtime clock: `now` in expressions and webhook timeouts. Timers of the machine use the actor's clock. */
  readonly clock: Clock;
  /** The ARI application name: dialled channels and snoops are created into it. */
  readonly application: string;
  /**
   * Picks ids for resources before creating them (playbacks, bridges, channels), so no event is
   * missed. A host that routes events per resource also starts routing this one to the call, and
   * cleans it up when the call ends. With `owned: false` the id is only picked: a call placed for
   * someone else (`originate`) neither reports to this call nor ends with it.
   */
  newId(
    kind: 'playback' | 'recording' | 'channel' | 'bridge' | 'snoop',
    options?: { readonly owned?: boolean },
  ): string;
  /** Forgets an id from `newId` whose resource was never created (its request failed): nothing to clean up. */
  forget?(kind: 'channel' | 'bridge', id: string): void;
  /**
   * Starts routing the events of a resource the flow names itself (a recording name, a conference
   * bridge). A `shared` bridge is joined by other calls too (a conference room): it is not
   * destroyed when this call ends, only when the last call in it does.
   */
  watch?(kind: 'recording' | 'bridge', id: string, options?: { readonly shared?: boolean }): void;
  /**
   * Where step failures go (the runtime logs and counts them, and keeps the last for the call's
   * end): every failed step is reported with its place in the flow and what the flow did next.
   */
  reportFailure?(failure: StepFailure): void;
  /**
   * The application's call queue `name` (made with `settings` on first use), bound to this call:
   * offers come to the flow's machine as `ringflow.queue.offer` events. A host without queues
   * (a test double) makes the queue steps fail with a message saying so.
   */
  queue?(name: string, settings: QueueSettings): FlowQueue;
  /** What the `agent` step connects to (bots, media sockets, speech); without it the step fails saying so. */
  readonly agents?: AgentServices;
  /** HTTP for the `http` step; defaults to the global fetch (undici in Node). */
  readonly fetch?: typeof fetch;
  /**
   * Where non-fatal problems go: `warn` for what an operator should see (an expression that
   * failed in a guard, a cleanup that failed), `debug` for normal races worth a trace only (a
   * barge-in stop that found its prompt already ended). A host without `debug` drops those.
   */
  readonly log?: FlowLog;
}

/** What a flow knows about its call (the runtime's `CallInfo` is what an application learns of a new call). Usually built from the StasisStart event with `callFromStasisStart`. */
export interface FlowCall {
  readonly channelId: string;
  readonly caller?: { readonly number: string; readonly name: string };
  readonly extension?: string;
  readonly context?: string;
  readonly language?: string;
  /** Arguments given to Stasis() in the dialplan. */
  readonly args?: readonly string[];
  /** Channel variables known so far (StasisStart `channelvars`, then `getVar` results). */
  readonly variables?: Readonly<Record<string, string>>;
}

/** The input of a compiled flow machine. */
export interface FlowMachineInput {
  readonly host: FlowHost;
  readonly call: FlowCall;
  /** Flow inputs; declared defaults fill the gaps. */
  readonly input?: Readonly<Record<string, unknown>>;
}

/**
 * How a run ended, the machine's output. `status`:
 * - completed: the flow ended by itself (a final state, or it hung up) with no failure along the way;
 * - recovered: a step failed, the flow's error handler took over and the flow ended by itself;
 * - failed: a step failed and nothing handled it (the call was hung up);
 * - hungUp: the caller hung up (or the call left the application) first;
 * - continued: the flow sent the call on in the dialplan;
 * - transferred: the flow handed the caller over (an attended transfer that stepped out).
 * `error` is the failure behind `recovered` and `failed` (message, status, operation, step, state).
 */
export interface FlowOutput {
  readonly status: 'completed' | 'recovered' | 'hungUp' | 'continued' | 'transferred' | 'failed';
  /** The flow state the run ended in (the last one entered). */
  readonly state: string;
  readonly output?: Readonly<Record<string, unknown>>;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly error?: Readonly<Record<string, unknown>>;
}

/**
 * Builds the call description from a StasisStart event.
 * @example const call = callFromStasisStart(event); actor = createActor(machine, { input: { host, call } });
 */
export function callFromStasisStart(event: {
  channel: {
    id: string;
    caller?: { number: string; name: string };
    dialplan?: { context: string; exten: string };
    language?: string;
    channelvars?: Record<string, unknown>;
  };
  args?: readonly string[];
}): FlowCall {
  const channel = event.channel;
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(channel.channelvars ?? {})) variables[k] = String(v);
  return {
    channelId: channel.id,
    ...(channel.caller ? { caller: { number: channel.caller.number, name: channel.caller.name } } : {}),
    ...(channel.dialplan ? { extension: channel.dialplan.exten, context: channel.dialplan.context } : {}),
    ...(channel.language ? { language: channel.language } : {}),
    args: event.args ?? [],
    variables,
  };
}
