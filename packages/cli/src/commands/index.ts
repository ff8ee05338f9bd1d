import type { Command } from '../Command.ts';
import { callCommand } from './callCommand.ts';
import { campaignCommand } from './campaignCommand.ts';
import { createDefaultCore } from './createDefaultCore.ts';
import { devCommand } from './devCommand.ts';
import { graphCommand } from './graphCommand.ts';
import { initCommand } from './initCommand.ts';
import { createRunCommand } from './runCommand.ts';
import { createSimulatorCommand } from './simulatorCommand.ts';
import { testCommand } from './testCommand.ts';
import { validateCommand } from './validateCommand.ts';

/**
 * Every `ringflow` subcommand, in the order `ringflow --help` lists them.
 *
 * To add a command: write it in its own file in this folder as a `Command`, with its full `--help`
 * text and its exit codes, and append it here.
 * The router, `--help` and the command list pick it up from this array.
 */
export const commands: readonly Command[] = [
  createRunCommand(),
  validateCommand,
  testCommand,
  graphCommand,
  createSimulatorCommand(createDefaultCore),
  callCommand,
  campaignCommand,
  initCommand,
  devCommand,
];
