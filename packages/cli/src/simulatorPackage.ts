/**
 * Everything the CLI takes from `@ringflow/simulator`, in one place. The package's index does not
 * export the wire server and the dialplan reader yet (asked of the simulator core's owner); until
 * it does, those are imported by path here and only here.
 */
export { createSimulator } from '@ringflow/simulator';
export type { SimulatedServer, Simulator } from '@ringflow/simulator';
export { startWireServer } from '../../simulator/src/wire/index.ts';
export type { WireServer, WireUser } from '../../simulator/src/wire/index.ts';
export { parseDialplan } from '../../simulator/src/dialplan/parseDialplan.ts';
export { formatIssue } from '../../simulator/src/dialplan/DialplanSyntaxError.ts';
