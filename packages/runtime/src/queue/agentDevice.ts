/**
 * Where a queue agent's status lives on the server: a device state the application controls,
 * `Stasis:queue-<queue>-<endpoint with "/" as "-">` (a device name travels in a URL path). Phones'
 * lamps and dashboards can watch it, and an application that starts again reads its agents'
 * status back from it.
 */

/** An agent's status as the queue changes it. */
export type AgentAction = 'login' | 'logout' | 'pause' | 'unpause';

/** The device state that shows an agent's status (`agentDevice`), as `deviceStates.update` takes it. */
export interface AgentStatus {
  readonly device: string;
  readonly state: (typeof AGENT_DEVICE_STATE)[AgentAction];
}

/** The device state each action publishes: available, paused or logged out. */
export const AGENT_DEVICE_STATE = {
  login: 'NOT_INUSE',
  unpause: 'NOT_INUSE',
  pause: 'ONHOLD',
  logout: 'UNAVAILABLE',
} as const satisfies Record<AgentAction, string>;

/**
 * The device of an agent of a queue.
 * @example agentDevice('support', 'PJSIP/alice') // 'Stasis:queue-support-PJSIP-alice'
 */
export function agentDevice(queue: string, endpoint: string): string {
  return `Stasis:queue-${queue}-${endpoint.replace('/', '-')}`;
}

/**
 * The agent and the actions that bring the queue to a published status, from a device state of
 * the server; undefined for a device that is not one of this queue's agents, or a state that
 * says nothing about the agent's status.
 * @example agentFromDevice('support', { name: 'Stasis:queue-support-PJSIP-alice', state: 'ONHOLD' })
 * // { agent: 'PJSIP/alice', actions: ['login', 'pause'] }
 */
export function agentFromDevice(
  queue: string,
  device: { readonly name: string; readonly state: string },
): { agent: string; actions: AgentAction[] } | undefined {
  const prefix = `Stasis:queue-${queue}-`;
  if (!device.name.startsWith(prefix)) return undefined;
  const rest = device.name.slice(prefix.length);
  const dash = rest.indexOf('-');
  if (dash <= 0 || dash === rest.length - 1) return undefined;
  const agent = `${rest.slice(0, dash)}/${rest.slice(dash + 1)}`;
  switch (device.state) {
    case 'NOT_INUSE':
      return { agent, actions: ['login', 'unpause'] };
    case 'ONHOLD':
      return { agent, actions: ['login', 'pause'] };
    case 'UNAVAILABLE':
      return { agent, actions: ['logout'] };
    default:
      return undefined;
  }
}
