/**
 * How the server's dialplan applications read their data: the argument splitter they share, and
 * the `Stasis()` data a channel snapshot lists. The simulator runs dialplan with it; the runtime
 * reads snapshots with it.
 */
export { splitArguments } from './splitArguments.ts';
export { MAX_STASIS_ARGS, parseStasisAppData } from './parseStasisAppData.ts';
export type { StasisAppData } from './parseStasisAppData.ts';
