import type { BridgeSession } from '../bridge/BridgeSession.ts';
import type { CallSession } from '../session/CallSession.ts';
import type { RuntimeCounters } from './ApplicationOptions.ts';
import type { ServerLink } from './ServerLink.ts';

/**
 * What an application holds now, counted over its calls, bridges and server links (for leak
 * checks: all zero once every call has ended).
 * @param appTimers the application's own timers (drain deadline, sweeps)
 * @param routes resources routed to a session
 */
export function countResources(
  sessions: Iterable<CallSession>,
  bridges: Iterable<BridgeSession>,
  links: readonly ServerLink[],
  appTimers: number,
  routes: number,
): RuntimeCounters {
  let activeSessions = 0;
  let bridgeSessions = 0;
  let subscriptions = 0;
  let timers = appTimers;
  let pendingRequests = 0;
  let digitWaiters = 0;
  for (const l of links) {
    timers += l.pendingTimers;
    pendingRequests += l.pendingCleanups;
  }
  for (const s of sessions) {
    const c = s.counters();
    activeSessions++;
    subscriptions += c.subscriptions;
    timers += c.timers;
    pendingRequests += c.pendingRequests;
    digitWaiters += c.digitWaiters;
  }
  for (const b of bridges) {
    const c = b.counters();
    bridgeSessions++;
    subscriptions += c.subscriptions;
    pendingRequests += c.pendingRequests;
  }
  return { activeSessions, bridgeSessions, subscriptions, timers, pendingRequests, routes, digitWaiters };
}
