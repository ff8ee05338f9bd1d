/**
 * Everything the CLI takes from `@ringflow/simulator`, in one place.
 */
export { createSimulator, formatIssue, loadDialplanFile, startWireServer } from '@ringflow/simulator';
export type { SimulatedServer, Simulator, WireServer, WireUser } from '@ringflow/simulator';
