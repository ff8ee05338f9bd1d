import { type Simulator, startOutboundWebSockets } from '@ringflow/simulator';

/**
 * Has the simulator dial the application once per call (outbound WebSockets, `per_call_config`)
 * at `ws://127.0.0.1:<port>/ari-call`, for the application `ivr`, re-dialling a dropped call's
 * connection every 100 ms (20 attempts) as a real server configured for takeovers would.
 *
 * @example
 * const rr = await startRoundRobin(ports);
 * const outbound = dialPerCall(sim, rr.port);
 */
export function dialPerCall(sim: Simulator, port: number): ReturnType<typeof startOutboundWebSockets> {
  return startOutboundWebSockets(sim, {
    connections: [
      {
        connectionType: 'per_call_config',
        uri: `ws://127.0.0.1:${port}/ari-call`,
        apps: ['ivr'],
        username: 'pbx',
        password: 'secret',
        reconnectIntervalMs: 100,
        reconnectAttempts: 20,
        closeAfterStasisEndMs: 10,
      },
    ],
  });
}
