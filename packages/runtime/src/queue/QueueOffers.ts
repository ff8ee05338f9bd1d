/**
 * Who is offered to whom: the free agents a queue rings for its waiting callers, as its ring
 * strategy says (pure rules over `QueueState`, used by `applyQueueChange`).
 */
import type { AgentState, QueueNotice, QueueState } from './QueueState.ts';

/** An agent that can be rung now. */
export function isAvailable(agent: AgentState, now: number): boolean {
  return agent.loggedIn && !agent.paused && agent.activity === 'idle' && agent.restUntil <= now;
}

/** Offers free agents to waiting callers, head first, until agents or callers run out. */
export function offerFreeAgents(state: QueueState, now: number, notices: QueueNotice[]): QueueState {
  let current = state;
  for (const caller of state.callers) {
    if (caller.offeredTo.length > 0) continue;
    const free = current.agents.filter((a) => isAvailable(a, now));
    if (free.length === 0) break;
    const chosen = pickAgents(current, free);
    current = {
      ...current,
      lastRung: chosen.at(-1) ?? current.lastRung,
      callers: current.callers.map((c) => (c.callId === caller.callId ? { ...c, offeredTo: chosen } : c)),
      agents: current.agents.map((a) =>
        chosen.includes(a.endpoint)
          ? { ...a, activity: 'ringing' as const, callId: caller.callId, lastOfferedAt: now }
          : a,
      ),
    };
    notices.push({ type: 'offer', callId: caller.callId, agents: chosen });
  }
  return current;
}

/** The agent(s) to ring for one caller, from those free now (in configured order). */
function pickAgents(state: QueueState, free: readonly AgentState[]): string[] {
  switch (state.settings.strategy) {
    case 'ringAll':
      return free.map((a) => a.endpoint);
    case 'roundRobin': {
      // The first free agent after the one rung last, in configured order, wrapping around.
      const order = state.agents.map((a) => a.endpoint);
      const start = order.indexOf(state.lastRung) + 1;
      for (let i = 0; i < order.length; i++) {
        const endpoint = order[(start + i) % order.length]!;
        if (free.some((a) => a.endpoint === endpoint)) return [endpoint];
      }
      return [free[0]!.endpoint];
    }
    case 'longestIdle':
      return [leastBy(free, (a) => a.lastCallEndedAt).endpoint];
    case 'fewestCalls':
      return [leastBy(free, (a) => a.callsTaken).endpoint];
  }
}

/**
 * The agent with the smallest `key`; among equals, the one offered least recently (so agents who
 * miss offers take turns), then the first configured.
 */
function leastBy(agents: readonly AgentState[], key: (agent: AgentState) => number): AgentState {
  return agents.reduce((best, a) => {
    const [ka, kb] = [key(a), key(best)];
    return ka < kb || (ka === kb && a.lastOfferedAt < best.lastOfferedAt) ? a : best;
  });
}
