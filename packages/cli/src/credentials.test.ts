import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ExitCode } from './ExitCode.ts';
import { main } from './main.ts';
import { accountOption } from './parseAccount.ts';

/**
 * One credentials style (issue 28, point 8): `--user name:password` in run, call and simulator,
 * `--user name --password pw` accepted everywhere as its alias; and a refused account told in
 * the command line's words (point 10).
 */
const IVR = fileURLToPath(new URL('../../../flows/ivr.yaml', import.meta.url));

function capture(stopWhen?: RegExp) {
  const out: string[] = [];
  let stop: (signal: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  const seen = (t: string) => {
    out.push(t);
    if (stopWhen?.test(out.join(''))) stop('SIGTERM');
  };
  const io = { stdout: seen, stderr: seen, isTerminal: false, waitForStop: () => stopped };
  return { io, text: () => out.join(''), stop: () => stop('SIGTERM') };
}

/** `ringflow simulator` in process with the given account options; its URL once it listens. */
async function startSimulator(args: string[]) {
  const sim = capture(/listening on/);
  let stopSimulator: (signal: string) => void = () => {};
  const io = {
    ...sim.io,
    waitForStop: () =>
      new Promise<string>((resolve) => {
        stopSimulator = resolve;
      }),
  };
  const exit = main(['simulator', '--port', '0', ...args], io);
  for (let i = 0; i < 200 && !/listening on/.test(sim.text()); i++)
    await Promise.race([exit, new Promise((r) => setTimeout(r, 25))]);
  const url = /listening on (http:\/\/\S+)\/ari/.exec(sim.text())?.[1];
  if (!url) throw new Error(`the simulator did not start: ${sim.text()}`);
  return {
    url,
    stop: () => {
      stopSimulator('SIGTERM');
      return exit;
    },
  };
}

describe('accountOption', () => {
  it('takes name:password, or name and --password, and says which form when neither fits', () => {
    expect(accountOption('ops:s3:cret', undefined)).toEqual({ username: 'ops', password: 's3:cret' });
    expect(accountOption('ops', 's3cret')).toEqual({ username: 'ops', password: 's3cret' });
    expect(accountOption(undefined, undefined)).toBeUndefined();
    expect(() => accountOption('ops', undefined)).toThrow(
      "--user: expected name:password (for example demo:demo), got 'ops'",
    );
    expect(() => accountOption(undefined, 'x')).toThrow(
      '--password goes with --user; give both as --user name:password',
    );
    expect(() => accountOption('ops:a', 'b')).toThrow("--user 'ops:a' already holds a password");
    expect(() => accountOption('u', undefined, '--http-user')).toThrow('--http-user: expected name:password');
    expect(() => accountOption(undefined, 'p', '--listen-user')).toThrow(
      '--listen-password goes with --listen-user',
    );
  });
});

describe('one credentials style in run, call and simulator', () => {
  it('simulator --user name --password pw, run and call --user name:password', async () => {
    const sim = await startSimulator(['--user', 'ops', '--password', 's3cret']);
    const run = capture();
    const args = [
      'run',
      IVR,
      '--server',
      sim.url,
      '--user',
      'ops:s3cret',
      '--app',
      'ringflow-demo',
      '--format',
      'json',
    ];
    const running = main(args, run.io);
    try {
      for (let i = 0; i < 200 && !run.text().includes('"msg":"application started"'); i++)
        await Promise.race([running, new Promise((r) => setTimeout(r, 25))]);
      expect(run.text()).toContain('"msg":"application started"');
      // The simulator's dialplan sends 100 to ringflow-demo: the flow answers.
      const call = capture();
      const callArgs = [
        'call',
        '--server',
        sim.url,
        '100',
        '--user',
        'ops:s3cret',
        '--wait',
        '300ms',
        '--hangup',
      ];
      expect(await main(callArgs, call.io), call.text()).toBe(ExitCode.OK);
      const alias = capture();
      const aliasArgs = [
        'call',
        '--server',
        sim.url,
        '100',
        '--user',
        'ops',
        '--password',
        's3cret',
        '--wait',
        '300ms',
        '--hangup',
      ];
      expect(await main(aliasArgs, alias.io), alias.text()).toBe(ExitCode.OK);
    } finally {
      run.stop();
      expect(await running, run.text()).toBe(ExitCode.OK);
      await sim.stop();
    }
  });

  it('a refused account is told in the command line words, not the library', async () => {
    const sim = await startSimulator(['--user', 'ops:s3cret']);
    try {
      const run = capture();
      const args = [
        'run',
        IVR,
        '--server',
        sim.url,
        '--user',
        'ops:wrong',
        '--app',
        'creds',
        '--format',
        'json',
      ];
      expect(await main(args, run.io)).toBe(ExitCode.FAILURE);
      expect(run.text()).toContain(`ringflow run: ${sim.url}/ari refused the user 'ops' (401`);
      expect(run.text()).toContain('Check --user name:password');
      expect(run.text()).not.toContain('createRestClient');
    } finally {
      await sim.stop();
    }
  });
});
