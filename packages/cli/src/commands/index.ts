import type { Command } from '../Command.ts';
import { createDefaultCore } from './createDefaultCore.ts';
import { createSimulatorCommand } from './simulatorCommand.ts';

/**
 * Every `ringflow` subcommand, in the order `ringflow --help` lists them.
 *
 * To add a command (`run`, `validate`, `test` and `graph` are planned): write it in its own file in
 * this folder as a `Command`, with its full `--help` text and its exit codes, and append it here.
 * The router, `--help` and the command list pick it up from this array.
 */
export const commands: readonly Command[] = [createSimulatorCommand(createDefaultCore)];
