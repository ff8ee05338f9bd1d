/**
 * A call queue as plain data, and the pure rules that change it. Nothing here talks to a server
 * or keeps a timer: `CallQueue` (the actor) feeds these functions its events and carries out what
 * they return. Plain data, so that a store shared by a cluster holds it (`SharedQueueStore`).
 */

import { offerFreeAgents } from './QueueOffers.ts';

/** How a queue picks the agent(s) to ring for the caller at its head. */
export type RingStrategy = 'ringAll' | 'roundRobin' | 'longestIdle' | 'fewestCalls';

export const RING_STRATEGIES: readonly RingStrategy[] = [
  'ringAll',
  'roundRobin',
  'longestIdle',
  'fewestCalls',
];

/** How a queue works: who answers it and how they are rung. Durations in milliseconds. */
export interface QueueSettings {
  /** The agents' endpoints (`PJSIP/alice`), logged in from the start; more can log in later. */
  readonly agents: readonly string[];
  readonly strategy: RingStrategy;
  /** How long one offer rings an agent before the caller is offered again. */
  readonly ringTimeoutMs: number;
  /** After a call, how long an agent rests before the next one. */
  readonly wrapUpMs: number;
  /** After an agent did not answer (or was busy), how long before it is rung again. */
  readonly retryMs: number;
  /** The music on hold class callers hear (the server's default when not given). */
  readonly musicClass?: string;
}

/** What an agent is doing. */
export type AgentActivity = 'idle' | 'ringing' | 'talking' | 'wrapUp';

export interface AgentState {
  readonly endpoint: string;
  readonly loggedIn: boolean;
  readonly paused: boolean;
  readonly activity: AgentActivity;
  /** The caller it rings or talks to. */
  readonly callId?: string;
  /** Not offered before this time (wrap-up after a call, rest after a missed offer). */
  readonly restUntil: number;
  /** When its last call ended (longest idle rings the smallest first); -1: none yet. */
  readonly lastCallEndedAt: number;
  /** When it was last offered a caller; -1: never. Among equals, the least recently offered rings first. */
  readonly lastOfferedAt: number;
  readonly callsTaken: number;
}

export interface WaitingCaller {
  readonly callId: string;
  readonly joinedAt: number;
  /** The agents rung for this caller now (empty while it only waits). */
  readonly offeredTo: readonly string[];
}

/** How a caller left the queue. */
export type QueueExit = 'answered' | 'timeout' | 'exited' | 'abandoned' | 'noAgents';

export const QUEUE_EXITS: readonly QueueExit[] = ['answered', 'timeout', 'exited', 'abandoned', 'noAgents'];

export interface QueueStats {
  /** Callers by how they left. */
  readonly left: Readonly<Record<QueueExit, number>>;
  /** Mean wait of the callers answered, smoothed over the recent ones (-1: nobody answered yet). */
  readonly holdTimeMs: number;
  readonly longestWaitMs: number;
}

export interface QueueState {
  readonly name: string;
  readonly settings: QueueSettings;
  /** In the order they joined: the first is at the head. */
  readonly callers: readonly WaitingCaller[];
  /** In the order they were configured (or logged in). */
  readonly agents: readonly AgentState[];
  /** The agent round robin rang last (its endpoint), '' before the first offer. */
  readonly lastRung: string;
  readonly stats: QueueStats;
}

/** Changes to a queue, as its actor receives them. `at` is the clock time of the change. */
export type QueueChange =
  | {
      readonly type: 'join';
      readonly callId: string;
      readonly at: number;
      /** A caller restored in a new process: the agents its call was ringing (already offered). */
      readonly ringing?: readonly string[];
    }
  | { readonly type: 'talking'; readonly callId: string; readonly agent: string; readonly at: number }
  | { readonly type: 'leave'; readonly callId: string; readonly reason: QueueExit; readonly at: number }
  | { readonly type: 'answered'; readonly callId: string; readonly agent: string; readonly at: number }
  | { readonly type: 'unanswered'; readonly callId: string; readonly at: number }
  | { readonly type: 'agentFree'; readonly agent: string; readonly at: number }
  | {
      readonly type: 'agent';
      readonly agent: string;
      readonly action: 'login' | 'logout' | 'pause' | 'unpause';
      readonly at: number;
    }
  | {
      readonly type: 'tick';
      readonly at: number;
      /**
       * A queue shared by processes: an offer neither answered nor missed this long after it was
       * made takes its caller out (see `withoutStaleOffers`). None: offers never go stale.
       */
      readonly staleOfferMs?: number;
    };

/** What the actor must tell callers after a change. */
export type QueueNotice =
  | { readonly type: 'offer'; readonly callId: string; readonly agents: readonly string[] }
  | { readonly type: 'noAgents'; readonly callId: string };

export interface QueueStep {
  readonly state: QueueState;
  readonly notices: readonly QueueNotice[];
}

export function initialQueueState(name: string, settings: QueueSettings): QueueState {
  return {
    name,
    settings,
    callers: [],
    agents: settings.agents.map((endpoint) => newAgent(endpoint, true)),
    lastRung: '',
    stats: {
      left: { answered: 0, timeout: 0, exited: 0, abandoned: 0, noAgents: 0 },
      holdTimeMs: -1,
      longestWaitMs: 0,
    },
  };
}

function newAgent(endpoint: string, loggedIn: boolean): AgentState {
  return {
    endpoint,
    loggedIn,
    paused: false,
    activity: 'idle',
    restUntil: 0,
    lastCallEndedAt: -1,
    lastOfferedAt: -1,
    callsTaken: 0,
  };
}

/** The caller's place in the queue (1 = next), or 0 when it is not waiting. */
export function positionOf(state: QueueState, callId: string): number {
  return state.callers.findIndex((c) => c.callId === callId) + 1;
}

/**
 * The next time something changes by itself (a wrap-up or rest ends; with `staleOfferMs`, an
 * offer goes stale), or undefined.
 */
export function nextWake(state: QueueState, now: number, staleOfferMs?: number): number | undefined {
  let next: number | undefined;
  const consider = (at: number) => {
    if (at > now && (next === undefined || at < next)) next = at;
  };
  for (const a of state.agents) {
    consider(a.restUntil);
    if (staleOfferMs !== undefined && a.activity === 'ringing') consider(a.lastOfferedAt + staleOfferMs);
  }
  return next;
}

/**
 * Applies one change, then offers free agents to the waiting callers (head first) as the
 * strategy says. Returns the new state and what to tell callers.
 */
export function applyQueueChange(state: QueueState, change: QueueChange): QueueStep {
  // A caller that is not waiting (any more) leaves or is answered: nothing changes.
  if (
    (change.type === 'leave' || change.type === 'answered') &&
    !state.callers.some((c) => c.callId === change.callId)
  )
    return { state, notices: [] };
  const notices: QueueNotice[] = [];
  let next =
    change.type === 'tick'
      ? change.staleOfferMs === undefined
        ? state
        : withoutStaleOffers(state, change.at, change.staleOfferMs)
      : applied(state, change, notices);
  next = offerFreeAgents(next, change.at, notices);
  return { state: next, notices };
}

function applied(state: QueueState, change: Exclude<QueueChange, { type: 'tick' }>, notices: QueueNotice[]) {
  switch (change.type) {
    case 'join': {
      const known = state.callers.find((c) => c.callId === change.callId);
      if (known) {
        // Already waiting (a queue shared by processes: its call was taken over by another one).
        // An offer its old process got but did not ring is made again to the new one.
        const lost =
          change.ringing !== undefined && known.offeredTo.some((a) => !change.ringing?.includes(a));
        if (lost) notices.push({ type: 'offer', callId: known.callId, agents: known.offeredTo });
        return state;
      }
      if (!state.agents.some((a) => a.loggedIn)) {
        notices.push({ type: 'noAgents', callId: change.callId });
        return withLeft(state, 'noAgents', 0);
      }
      const ringing = (change.ringing ?? []).filter((endpoint) =>
        state.agents.some((a) => a.endpoint === endpoint && a.activity === 'idle'),
      );
      const caller = { callId: change.callId, joinedAt: change.at, offeredTo: ringing };
      // In the order they joined: a caller restored in a new process keeps its place.
      const before = state.callers.filter((c) => c.joinedAt <= change.at);
      const after = state.callers.filter((c) => c.joinedAt > change.at);
      return {
        ...state,
        callers: [...before, caller, ...after],
        agents: state.agents.map((a) =>
          ringing.includes(a.endpoint) ? { ...a, activity: 'ringing' as const, callId: change.callId } : a,
        ),
      };
    }
    case 'talking':
      // A conversation restored in a new process: the agent is busy with it until it ends.
      return {
        ...state,
        agents: state.agents.map((a) =>
          a.endpoint === change.agent ? { ...a, activity: 'talking' as const, callId: change.callId } : a,
        ),
      };
    case 'leave': {
      const caller = state.callers.find((c) => c.callId === change.callId);
      if (!caller) return state;
      return withLeft(
        {
          ...state,
          callers: state.callers.filter((c) => c !== caller),
          agents: state.agents.map((a) =>
            a.callId === caller.callId && a.activity === 'ringing' ? idle(a) : a,
          ),
        },
        change.reason,
        change.at - caller.joinedAt,
      );
    }
    case 'answered': {
      const caller = state.callers.find((c) => c.callId === change.callId);
      if (!caller) return state;
      const waited = change.at - caller.joinedAt;
      const hold = state.stats.holdTimeMs < 0 ? waited : (state.stats.holdTimeMs * 3 + waited) / 4;
      const agents = state.agents.map((a) => {
        if (a.endpoint === change.agent)
          return { ...a, activity: 'talking' as const, callId: caller.callId, callsTaken: a.callsTaken + 1 };
        return a.callId === caller.callId && a.activity === 'ringing' ? idle(a) : a;
      });
      const left = withLeft(
        { ...state, agents, callers: state.callers.filter((c) => c !== caller) },
        'answered',
        waited,
      );
      return { ...left, stats: { ...left.stats, holdTimeMs: Math.round(hold) } };
    }
    case 'unanswered': {
      const caller = state.callers.find((c) => c.callId === change.callId);
      if (!caller) return state;
      return {
        ...state,
        callers: state.callers.map((c) => (c === caller ? { ...c, offeredTo: [] } : c)),
        agents: state.agents.map((a) =>
          a.callId === caller.callId && a.activity === 'ringing'
            ? { ...idle(a), restUntil: change.at + state.settings.retryMs }
            : a,
        ),
      };
    }
    case 'agentFree':
      return {
        ...state,
        agents: state.agents.map((a) =>
          a.endpoint === change.agent && a.activity === 'talking'
            ? { ...idle(a), restUntil: change.at + state.settings.wrapUpMs, lastCallEndedAt: change.at }
            : a,
        ),
      };
    case 'agent':
      return agentAction(state, change.agent, change.action, notices);
  }
}

function agentAction(
  state: QueueState,
  endpoint: string,
  action: 'login' | 'logout' | 'pause' | 'unpause',
  notices: QueueNotice[],
): QueueState {
  const known = state.agents.some((a) => a.endpoint === endpoint);
  const agents = known ? state.agents : [...state.agents, newAgent(endpoint, false)];
  const changed = {
    ...state,
    agents: agents.map((a) => {
      if (a.endpoint !== endpoint) return a;
      if (action === 'login') return { ...a, loggedIn: true };
      if (action === 'logout') return { ...a, loggedIn: false, paused: false };
      return { ...a, paused: action === 'pause' };
    }),
  };
  if (changed.agents.some((a) => a.loggedIn)) return changed;
  // The last agent logged out: nobody will answer the callers still waiting (an offer ringing
  // ends with them: the caller's step hangs the agent's call up).
  for (const c of changed.callers) notices.push({ type: 'noAgents', callId: c.callId });
  return changed.callers.reduce<QueueState>((emptied) => withLeft(emptied, 'noAgents', 0), {
    ...changed,
    callers: [],
    agents: changed.agents.map((a) => (a.activity === 'ringing' ? idle(a) : a)),
  });
}

/**
 * A queue shared by processes: a caller offered agents `staleOfferMs` ago that neither answered
 * nor missed them is no longer driven by any process (its process died, and its call was not
 * taken over, or not yet): it is taken out, uncounted, and its agents are free. A call taken
 * over later joins again at its place (its join time).
 */
function withoutStaleOffers(state: QueueState, now: number, staleOfferMs: number): QueueState {
  const stale = new Set(
    state.agents
      .filter((a) => a.activity === 'ringing' && a.lastOfferedAt + staleOfferMs <= now)
      .map((a) => a.callId),
  );
  if (stale.size === 0) return state;
  return {
    ...state,
    callers: state.callers.filter((c) => !stale.has(c.callId)),
    agents: state.agents.map((a) => (a.activity === 'ringing' && stale.has(a.callId) ? idle(a) : a)),
  };
}

function idle(agent: AgentState): AgentState {
  const { callId: _gone, ...rest } = agent;
  return { ...rest, activity: 'idle' };
}

function withLeft(state: QueueState, reason: QueueExit, waitedMs: number): QueueState {
  return {
    ...state,
    stats: {
      ...state.stats,
      left: { ...state.stats.left, [reason]: state.stats.left[reason] + 1 },
      longestWaitMs: Math.max(state.stats.longestWaitMs, waitedMs),
    },
  };
}
