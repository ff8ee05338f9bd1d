import type { FlowHost } from '@ringflow/dsl';
import { type AgentServices, type StepFailure, takesChannelOut } from '@ringflow/runtime';
import type {
  CallerAction,
  FarEndRefusal,
  FlowRequest,
  RecordedCall,
  RecordedEnd,
  RecordedFarEnd,
} from './RecordedCall.ts';
import type { AgentTurn } from './feedMessages.ts';
import type { WatchedCall } from './watchCalls.ts';

/** Who the caller is, as the call was placed. */
export interface PlacedCall {
  readonly flow: string;
  readonly flowFile: string;
  readonly caller: string;
  readonly extension?: string;
  readonly language?: string;
  /** The arguments the dialplan gave the application (`Stasis(ivr,desk)`: `['desk']`). */
  readonly args?: readonly string[];
  /** The flow's inputs as the application runs it (`ringflow run --input`), when given. */
  readonly inputs?: Readonly<Record<string, unknown>>;
}

/** The requests that make a channel (not dialled: no person at its end) or a bridge with the id given. */
const MAKING_OPERATIONS = new Set([
  'channels.externalMedia',
  'channels.create',
  'channels.snoopChannelWithId',
  'bridges.createWithId',
  'bridges.create',
]);

/** How a far end refused, by the hangup cause it gave (see the simulator's REFUSAL_CAUSES). */
const CAUSE_REFUSALS: Readonly<Record<number, FarEndRefusal>> = {
  17: 'busy',
  21: 'reject',
  27: 'unreachable',
};
/** How a far end refused, by how its Dial ended (when no cause told it first). */
const DIAL_REFUSALS: Readonly<Record<string, FarEndRefusal>> = {
  BUSY: 'busy',
  CHANUNAVAIL: 'reject',
  CONGESTION: 'unreachable',
};

interface CallLog {
  readonly placed: PlacedCall;
  readonly startedAt: number;
  readonly actions: CallerAction[];
  readonly farEnds: { -readonly [K in keyof RecordedFarEnd]: RecordedFarEnd[K] }[];
  readonly requests: FlowRequest[];
  readonly pickedIds: string[];
  readonly agentTurns: { readonly at: number; readonly turn: AgentTurn }[];
  callerHungUp: boolean;
}

/**
 * Keeps what each call of the console did, so that it can be saved as a scenario: what the
 * caller and the far ends' people did (from the page), and the requests the call's flow made
 * (through its host, see {@link recordingHost}). The states and the end come from the call's
 * {@link WatchedCall}.
 */
export class CallRecorder {
  private readonly calls = new Map<string, CallLog>();
  /** Dialled channels, by id: the call that dialled them. */
  private readonly farEndCalls = new Map<string, string>();
  /**
   * Channels (other than far ends) and bridges a call's flow made, by id: the call (an agent
   * step's external media channel and bridge, a queue's bridge).
   */
  private readonly madeBy = new Map<string, string>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A call starts (placed from the page, or first seen): times count from now. */
  placed(id: string, placed: PlacedCall): void {
    if (this.calls.has(id)) return;
    this.calls.set(id, {
      placed,
      startedAt: this.now(),
      actions: [],
      farEnds: [],
      requests: [],
      pickedIds: [],
      agentTurns: [],
      callerHungUp: false,
    });
  }

  has(id: string): boolean {
    return this.calls.has(id);
  }

  /** The caller pressed keys, talked or stopped, said words to an agent step, hung up. */
  callerDid(
    id: string,
    action:
      | { kind: 'press'; digits: string }
      | { kind: 'talk'; talking: boolean }
      | { kind: 'say'; text: string }
      | { kind: 'hangup' },
  ): void {
    const log = this.calls.get(id);
    if (!log) return;
    log.actions.push({ ...action, at: this.now() - log.startedAt });
    if (action.kind === 'hangup') log.callerHungUp = true;
  }

  /** The flow of call `id` made a request (recorded before it is sent, so its events find it). */
  request(id: string, operation: string, params: Readonly<Record<string, unknown>>): void {
    const log = this.calls.get(id);
    if (!log) return;
    log.requests.push({ at: this.now() - log.startedAt, operation, params });
    const made = operation.startsWith('bridges.create') ? params.bridgeId : params.channelId;
    if (MAKING_OPERATIONS.has(operation) && typeof made === 'string') this.madeBy.set(made, id);
    const dialled = params.channelId;
    if (operation.startsWith('channels.originate') && typeof dialled === 'string') {
      this.farEndCalls.set(dialled, id);
      // It rings from now (the page, or the server's events, tell what its person does).
      log.farEnds.push({
        endpoint: String(params.endpoint ?? ''),
        channel: dialled,
        ringAt: this.now() - log.startedAt,
        outcome: 'ringing',
      });
    }
  }

  /**
   * What the caller and the far ends did, read from the events of a call on a real server (the
   * live view, where no page drives them): keys (pressed when their tone began), talk, the
   * caller's hang-up, far ends answering, refusing or hanging up after answering.
   *
   * Hang-ups the server makes itself (`soft`: an ARI request, the originate's timeout, the end
   * of the application) and those the flow asked for are not anyone's doing. A ringing far end
   * refused when its hang-up came with a refusal cause (17 busy, 21 rejected, 27 out of order),
   * or when its Dial ended BUSY, CHANUNAVAIL or CONGESTION; NOANSWER and CANCEL leave it ringing
   * (it rang until the flow or the server gave up).
   */
  heard(id: string, event: { readonly type: string } & Readonly<Record<string, unknown>>): void {
    const log = this.calls.get(id);
    if (!log) return;
    if (event.type === 'Dial') {
      const peer = (event.peer as { id?: string } | undefined)?.id;
      const farEnd = log.farEnds.find((f) => f.channel === peer);
      if (farEnd?.outcome !== 'ringing') return;
      const status = String(event.dialstatus ?? '');
      if (status === 'ANSWER') this.farEndDid(farEnd.channel, 'answered');
      const refusal = DIAL_REFUSALS[status];
      if (refusal) this.farEndDid(farEnd.channel, 'rejected', refusal);
      return;
    }
    const channel = (event.channel as { id?: string; state?: string } | undefined) ?? {};
    if (channel.id === undefined) return;
    const at = this.now() - log.startedAt;
    // A hang-up the server made itself (soft), or that follows a request of the flow.
    const byServerOrFlow = (asked: (r: FlowRequest) => boolean) =>
      event.soft === true || log.requests.some(asked);
    if (channel.id === id) {
      if (event.type === 'ChannelDtmfReceived')
        log.actions.push({
          at: Math.max(0, at - Number(event.duration_ms ?? 0)),
          kind: 'press',
          digits: String(event.digit),
        });
      if (event.type === 'ChannelTalkingStarted' || event.type === 'ChannelTalkingFinished')
        log.actions.push({ at, kind: 'talk', talking: event.type === 'ChannelTalkingStarted' });
      if (
        event.type === 'ChannelHangupRequest' &&
        !log.callerHungUp &&
        // The runtime's rule: after these requests the channel leaves the application, it is not the caller's doing.
        !byServerOrFlow((r) => takesChannelOut(r.operation, r.params, id))
      )
        this.callerDid(id, { kind: 'hangup' });
      return;
    }
    const farEnd = log.farEnds.find((f) => f.channel === channel.id);
    if (!farEnd) return;
    if (event.type === 'ChannelStateChange' && channel.state === 'Up') this.farEndDid(channel.id, 'answered');
    const farEndId = channel.id;
    const hungUpByFlow = (r: FlowRequest) =>
      r.operation === 'channels.hangup' && r.params.channelId === farEndId;
    if (event.type !== 'ChannelHangupRequest' || byServerOrFlow(hungUpByFlow)) return;
    if (farEnd.outcome === 'answered') this.farEndDid(channel.id, 'hungUp');
    else {
      const refusal = CAUSE_REFUSALS[Number(event.cause)];
      if (farEnd.outcome === 'ringing' && refusal) this.farEndDid(channel.id, 'rejected', refusal);
    }
  }

  /** A turn of call `id`'s agent step (what passed between ringflow and the bot). */
  agentTurn(id: string, turn: AgentTurn): void {
    const log = this.calls.get(id);
    log?.agentTurns.push({ at: this.now() - log.startedAt, turn });
  }

  /** Forgets call `id` (and its far ends): it can no longer be saved. */
  forget(id: string): void {
    this.calls.delete(id);
    for (const [channel, call] of this.farEndCalls) if (call === id) this.farEndCalls.delete(channel);
    for (const [made, call] of this.madeBy) if (call === id) this.madeBy.delete(made);
  }

  picked(id: string, resource: string): void {
    this.calls.get(id)?.pickedIds.push(resource);
  }

  /** The call that dialled this channel, if a call's flow did. */
  callOfFarEnd(channel: string): string | undefined {
    return this.farEndCalls.get(channel);
  }

  /**
   * The call a channel or bridge belongs to on the timeline: the call that dialled it or made it
   * (an agent step's media channel, a bridge), itself otherwise.
   */
  callOf(id: string): string {
    return this.farEndCalls.get(id) ?? this.madeBy.get(id) ?? id;
  }

  /** The far end's person answered, refused (`busy` unless told how), or hung up after answering. */
  farEndDid(channel: string, what: 'answered' | 'rejected' | 'hungUp', refusal?: FarEndRefusal): void {
    const log = this.logOfFarEnd(channel);
    const farEnd = log?.farEnds.find((f) => f.channel === channel);
    if (!log || !farEnd) return;
    const at = this.now() - log.startedAt;
    if (what === 'hungUp') log.actions.push({ at, kind: 'hangupFarEnd', endpoint: farEnd.endpoint });
    else if (farEnd.outcome === 'ringing') {
      farEnd.outcome = what;
      farEnd.at = at;
      if (what === 'rejected') farEnd.refusal = refusal ?? 'busy';
    }
  }

  private logOfFarEnd(channel: string): CallLog | undefined {
    const id = this.farEndCalls.get(channel);
    return id === undefined ? undefined : this.calls.get(id);
  }

  /**
   * Everything known of call `id` now, with its states and end from `watched`; undefined for a
   * call the console did not see start.
   */
  record(id: string, watched: WatchedCall | undefined): RecordedCall | undefined {
    const log = this.calls.get(id);
    if (!log) return undefined;
    const { placed } = log;
    const end = watched?.endedAt === undefined ? undefined : endOf(log, watched, watched.endedAt);
    return {
      id,
      flow: placed.flow,
      flowFile: placed.flowFile,
      startedAt: log.startedAt,
      caller: placed.caller,
      ...(placed.extension !== undefined ? { extension: placed.extension } : {}),
      ...(placed.language !== undefined ? { language: placed.language } : {}),
      ...(placed.args !== undefined && placed.args.length > 0 ? { args: [...placed.args] } : {}),
      ...(placed.inputs !== undefined && Object.keys(placed.inputs).length > 0
        ? { inputs: { ...placed.inputs } }
        : {}),
      actions: [...log.actions],
      farEnds: log.farEnds.map((f) => ({ ...f })),
      states: [...(watched?.states ?? [])],
      requests: [...log.requests],
      pickedIds: [...log.pickedIds],
      ...(log.agentTurns.length > 0 ? { agentTurns: [...log.agentTurns] } : {}),
      ...(end ? { end } : {}),
      takenAt: this.now() - log.startedAt,
    };
  }
}

/** How the call ended, in the runtime's words (the same a scenario's `end` and the log use). */
function endOf(log: CallLog, watched: WatchedCall, endedAt: number): RecordedEnd | undefined {
  return watched.end ? { at: endedAt - log.startedAt, ...watched.end } : undefined;
}

/**
 * A call's flow host that tells the recorder each request the flow makes (operation and
 * arguments) and each id it picks, and tells `tell` each request and step failure; its agent steps
 * get `tell.agents` (when given); the rest is the host's own.
 */
export function recordingHost(
  host: FlowHost,
  call: string,
  recorder: CallRecorder | undefined,
  tell: {
    readonly failure: (failure: StepFailure) => void;
    readonly request?: (operation: string, params: Readonly<Record<string, unknown>>) => void;
    readonly agents?: AgentServices;
  },
): FlowHost {
  const ari = new Proxy({} as FlowHost['ari'], {
    get(_, resource) {
      const api = Reflect.get(host.ari, resource, host.ari) as unknown;
      if (typeof api !== 'object' || api === null || typeof resource !== 'string') return api;
      return new Proxy(
        {},
        {
          get(_, method) {
            const value = Reflect.get(api, method, api) as unknown;
            if (typeof value !== 'function' || typeof method !== 'string') return value;
            return (...args: unknown[]) => {
              const first = args[0];
              const params =
                first !== null && typeof first === 'object' ? (first as Record<string, unknown>) : {};
              recorder?.request(call, `${resource}.${method}`, params);
              tell.request?.(`${resource}.${method}`, params);
              return value.apply(api, args);
            };
          },
        },
      );
    },
  });
  return new Proxy({} as FlowHost, {
    get(_, key) {
      if (key === 'ari') return ari;
      if (key === 'agents' && tell.agents) return tell.agents;
      if (key === 'reportFailure')
        return (failure: StepFailure) => {
          tell.failure(failure);
          host.reportFailure?.(failure);
        };
      if (key === 'newId')
        return (...args: Parameters<FlowHost['newId']>) => {
          const id = host.newId(...args);
          recorder?.picked(call, id);
          return id;
        };
      const value = Reflect.get(host, key, host) as unknown;
      return typeof value === 'function' ? value.bind(host) : value;
    },
  });
}
