/**
 * The simulator over the wire: node `http` + `ws` in front of any `SimulatedServer`.
 */
export { startWireServer } from './startWireServer.ts';
export type { WireServer, WireServerOptions } from './startWireServer.ts';
export type { WireUser } from './authenticate.ts';
