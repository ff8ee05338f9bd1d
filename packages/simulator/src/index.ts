/**
 * @ringflow/simulator: an in-memory server speaking the ARI interface, for tests and demos.
 */
export { createSimulator, DEFAULT_ASTERISK_ID } from './createSimulator.ts';
export type { Simulator, SimulatorOptions } from './createSimulator.ts';
export type {
  EventConnection,
  EventConnectionRequest,
  SimRequest,
  SimResponse,
  SimulatedServer,
} from './transport.ts';
export { SimError } from './SimError.ts';
export { SimulatorDriver } from './driver/SimulatorDriver.ts';
export type { InboundCall, OutboundItem, WaitOptions } from './driver/SimulatorDriver.ts';
export type { PublishedEvent } from './events/EventBus.ts';
export { formatTimestamp } from './events/formatTimestamp.ts';
