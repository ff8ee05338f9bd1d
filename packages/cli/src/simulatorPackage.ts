/**
 * Everything the CLI takes from `@ringflow/simulator`, in one place.
 */
export {
  createSimulator,
  formatIssue,
  loadDialplanFile,
  readSoundDirectory,
  startOutboundWebSockets,
  startWireServer,
} from '@ringflow/simulator';
export type {
  OutboundConnectionConfig,
  OutboundWebSockets,
  SimulatedServer,
  Simulator,
  WireServer,
  WireUser,
} from '@ringflow/simulator';
