import { describe, expect, it } from 'vitest';
import { type Command, UsageError } from './Command.ts';
import { ExitCode } from './ExitCode.ts';
import { main } from './main.ts';
import { captureIo } from './test-support/captureIo.ts';

const echo: Command = {
  name: 'echo',
  summary: 'print the arguments',
  help: 'Usage: ringflow echo [words]\n',
  async run(args, io) {
    if (args.includes('--bad')) throw new UsageError("--bad: not an option of 'echo'");
    if (args.includes('--crash')) throw new Error('broke');
    io.stdout(`${args.join(' ')}\n`);
    return ExitCode.OK;
  },
};

describe('main', () => {
  it('lists only the commands that exist, with their summaries, and the exit codes', async () => {
    const c = captureIo();
    expect(await main(['--help'], c.io, [echo])).toBe(ExitCode.OK);
    expect(c.out()).toContain('  echo   print the arguments');
    expect(c.out()).toContain('Exit codes: 0 done, 1 failed while working, 2 wrong command line');
    expect(c.err()).toBe('');
  });

  it('lists the real commands: run, validate, test, graph, simulator, call, campaign, init, dev', async () => {
    const c = captureIo();
    await main(['--help'], c.io);
    const listed = [...c.out().matchAll(/^ {2}(\w+) {2,}\S/gm)].map((m) => m[1]);
    expect(listed).toEqual([
      'run',
      'validate',
      'test',
      'graph',
      'simulator',
      'call',
      'campaign',
      'init',
      'dev',
    ]);
    expect(c.out()).toMatch(/^ {2}simulator +run the simulated ARI server/m);
  });

  it('shows the help of a command with help <command> and <command> --help', async () => {
    const c = captureIo();
    expect(await main(['help', 'echo'], c.io, [echo])).toBe(ExitCode.OK);
    expect(c.out()).toBe('Usage: ringflow echo [words]\n');
    const s = captureIo();
    expect(await main(['simulator', '--help'], s.io)).toBe(ExitCode.OK);
    expect(s.out()).toContain('Usage: ringflow simulator [options]');
    expect(s.out()).toContain('demo:demo');
  });

  it('runs the named command with the remaining arguments', async () => {
    const c = captureIo();
    expect(await main(['echo', 'a', 'b'], c.io, [echo])).toBe(ExitCode.OK);
    expect(c.out()).toBe('a b\n');
  });

  it('answers no command with the help on stderr and exit code 2', async () => {
    const c = captureIo();
    expect(await main([], c.io, [echo])).toBe(ExitCode.USAGE);
    expect(c.err()).toContain('Usage: ringflow <command>');
    expect(c.out()).toBe('');
  });

  it('answers an unknown command or option with exit code 2 and the known commands', async () => {
    for (const args of [['nope'], ['--nope'], ['help', 'nope']]) {
      const c = captureIo();
      expect(await main(args, c.io, [echo]), args.join(' ')).toBe(ExitCode.USAGE);
      expect(c.err()).toMatch(/unknown (command|option) '(--)?nope'\. Commands: echo\./);
    }
  });

  it('turns a usage error into exit code 2 with a pointer to the help', async () => {
    const c = captureIo();
    expect(await main(['echo', '--bad'], c.io, [echo])).toBe(ExitCode.USAGE);
    expect(c.err()).toBe(
      "ringflow echo: --bad: not an option of 'echo'\nRun 'ringflow echo --help' for the options.\n",
    );
  });

  it('turns any other failure into exit code 1, never a throw', async () => {
    const c = captureIo();
    expect(await main(['echo', '--crash'], c.io, [echo])).toBe(ExitCode.FAILURE);
    expect(c.err()).toMatch(/^ringflow echo: failed: Error: broke/);
  });

  it('prints the package version', async () => {
    const c = captureIo();
    expect(await main(['--version'], c.io)).toBe(ExitCode.OK);
    expect(c.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
