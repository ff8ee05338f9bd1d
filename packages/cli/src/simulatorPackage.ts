/**
 * Everything the CLI takes from `@ringflow/simulator`, in one place.
 */
export {
  createSimulator,
  formatIssue,
  loadDialplanFile,
  parseFarEndConfig,
  readSoundDirectory,
  startOutboundWebSockets,
  startWireServer,
} from '@ringflow/simulator';
export type {
  FarEndConfig,
  OutboundConnectionConfig,
  OutboundWebSockets,
  SimulatedServer,
  Simulator,
  WireServer,
  WireUser,
} from '@ringflow/simulator';
