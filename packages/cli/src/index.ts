/**
 * @ringflow/cli: the `ringflow` command, callable in process (tests, other tools).
 */
export { main } from './main.ts';
export { commands } from './commands/index.ts';
export { ExitCode } from './ExitCode.ts';
export type { Command } from './Command.ts';
export { UsageError } from './Command.ts';
export type { CommandIo } from './CommandIo.ts';
export { createSimulatorCommand } from './commands/simulatorCommand.ts';
export type { CoreOptions, CreateCore, RunningCore } from './commands/simulatorCommand.ts';
