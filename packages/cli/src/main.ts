import { type Command, UsageError } from './Command.ts';
import type { CommandIo } from './CommandIo.ts';
import { cliVersion } from './cliVersion.ts';
import { ExitCode } from './ExitCode.ts';
import { commands as allCommands } from './commands/index.ts';

/**
 * The `ringflow` command: picks the subcommand named by the first argument and runs it with the
 * rest. Resolves with the process exit code (see `ExitCode`); never throws.
 *
 * @example
 * const code = await main(['simulator', '--port', '0'], { stdout: (t) => process.stdout.write(t), stderr: ... });
 */
export async function main(
  argv: readonly string[],
  io: CommandIo,
  commands: readonly Command[] = allCommands,
): Promise<ExitCode> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr(mainHelp(commands));
    return ExitCode.USAGE;
  }
  if (first === '--help' || first === '-h') {
    io.stdout(mainHelp(commands));
    return ExitCode.OK;
  }
  if (first === '--version' || first === '-v') {
    io.stdout(`${cliVersion()}\n`);
    return ExitCode.OK;
  }
  if (first === 'help') {
    const topic = rest[0];
    const command = commands.find((c) => c.name === topic);
    if (topic === undefined) io.stdout(mainHelp(commands));
    else if (command) io.stdout(command.help);
    else return unknownCommand(topic, commands, io);
    return ExitCode.OK;
  }
  const command = commands.find((c) => c.name === first);
  if (!command) return unknownCommand(first, commands, io);
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(
        `ringflow ${command.name}: ${error.message}\nRun 'ringflow ${command.name} --help' for the options.\n`,
      );
      return ExitCode.USAGE;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(`ringflow ${command.name}: failed: ${detail}\n`);
    return ExitCode.FAILURE;
  }
}

function unknownCommand(name: string, commands: readonly Command[], io: CommandIo): ExitCode {
  const known = commands.map((c) => c.name).join(', ');
  const hint = name.startsWith('-') ? `unknown option '${name}'` : `unknown command '${name}'`;
  io.stderr(`ringflow: ${hint}. Commands: ${known}. Run 'ringflow --help' for usage.\n`);
  return ExitCode.USAGE;
}

function mainHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 3;
  const list = commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n');
  return `Usage: ringflow <command> [options]

Build, run and unit-test telephony call applications on ARI servers.

Commands:
${list}

Run 'ringflow <command> --help' (or 'ringflow help <command>') for the options of a command.

Options:
  -h, --help      show this help
  -v, --version   show the version

Exit codes: 0 done, 1 failed while working, 2 wrong command line (nothing was done).
`;
}
