import { createServer } from 'node:net';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../ExitCode.ts';
import { main } from '../main.ts';
import { createDefaultCore } from './createDefaultCore.ts';
import {
  type CoreOptions,
  type CreateCore,
  type RunningCore,
  createSimulatorCommand,
} from './simulatorCommand.ts';

/** Runs `ringflow simulator ...` in process; `stop()` plays the part of SIGTERM. */
function startCommand(args: string[], createCore: CreateCore = createDefaultCore) {
  const out: string[] = [];
  const err: string[] = [];
  let stop: (signal: string) => void = () => {};
  let again: () => void = () => {};
  let listening: (line: string) => void = () => {};
  const ready = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const io = {
    stdout: (t: string) => {
      out.push(t);
      listening(t);
    },
    stderr: (t: string) => err.push(t),
    waitForStop: (onAgain: () => void) => {
      again = onAgain;
      return new Promise<string>((resolve) => {
        stop = resolve;
      });
    },
  };
  const exit = main(['simulator', ...args], io, [createSimulatorCommand(createCore)]);
  return { exit, ready, out, err, stop: () => stop('SIGTERM'), again: () => again() };
}

const demo = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };

describe('ringflow simulator', () => {
  it('prints exactly one line with the URL, serves the core, and exits 0 on SIGTERM', async () => {
    const run = startCommand(['--port', '0']);
    const line = await Promise.race([
      run.ready,
      run.exit.then((code) => `exited ${code}: ${run.err.join('')}`),
    ]);
    const match = /^listening on (http:\/\/127\.0\.0\.1:(\d+)\/ari)\n$/.exec(line);
    expect(match, line).not.toBeNull();
    const ping = await request(`${match![1]}/asterisk/ping`, { headers: demo });
    expect(ping.statusCode).toBe(200);
    expect(await ping.body.json()).toMatchObject({ ping: 'pong' });
    run.stop();
    expect(await run.exit).toBe(ExitCode.OK);
    expect(run.out).toEqual([line]);
    await expect(request(`${match![1]}/asterisk/ping`, { headers: demo })).rejects.toThrow();
  });

  it('creates demo:demo only when no account is given, and honours read-only accounts', async () => {
    const run = startCommand(['--port', '0', '--user', 'alice:s3:cret', '--read-only-user', 'viewer:viewer']);
    const url = (await run.ready).trim().replace('listening on ', '');
    const as = (user: string) => ({ Authorization: `Basic ${Buffer.from(user).toString('base64')}` });
    expect((await request(`${url}/asterisk/ping`, { headers: as('alice:s3:cret') })).statusCode).toBe(200);
    expect((await request(`${url}/asterisk/ping`, { headers: as('demo:demo') })).statusCode).toBe(401);
    const write = await request(`${url}/asterisk/variable?variable=X&value=1`, {
      method: 'POST',
      headers: as('viewer:viewer'),
    });
    expect(write.statusCode).toBe(403);
    await write.body.dump();
    run.stop();
    expect(await run.exit).toBe(ExitCode.OK);
  });

  it('passes the dialplan file to the core and sends its warnings to stderr only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-cli-'));
    const file = join(dir, 'extensions.conf');
    await writeFile(file, '[default]\nexten => 100,1,NoOp()\n same => n,Playback(beep)\n');
    const seen: CoreOptions[] = [];
    const run = startCommand(['--port', '0', '--dialplan', file], (options) => {
      seen.push(options);
      options.warn(`${file}:2: warning: something to know`);
      return createDefaultCore(options);
    });
    await run.ready;
    expect(seen[0]?.dialplanFile).toBe(file);
    expect(run.err.join('')).toBe(`${file}:2: warning: something to know\n`);
    expect(run.out).toHaveLength(1);
    run.stop();
    expect(await run.exit).toBe(ExitCode.OK);
  });

  it('fails with exit code 1 and a message for an unreadable or invalid dialplan', async () => {
    const missing = startCommand(['--port', '0', '--dialplan', '/nonexistent/extensions.conf']);
    expect(await missing.exit).toBe(ExitCode.FAILURE);
    expect(missing.err.join('')).toMatch(/Cannot read the dialplan file "\/nonexistent\/extensions.conf"/);
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-cli-'));
    const file = join(dir, 'broken.conf');
    await writeFile(file, '[default\nexten => 100\n');
    const broken = startCommand(['--port', '0', '--dialplan', file]);
    expect(await broken.exit).toBe(ExitCode.FAILURE);
    expect(broken.err.join('')).toContain(`${file}:1`);
    expect(broken.out).toEqual([]);
  });

  it('fails with exit code 1 when the port is taken, closing the core', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    let closed = false;
    const run = startCommand(['--port', String(port)], async (options) => {
      const core = await createDefaultCore(options);
      return Object.assign(Object.create(core) as RunningCore, {
        handle: core.handle.bind(core),
        connectEvents: core.connectEvents.bind(core),
        close: () => {
          closed = true;
          core.close();
        },
      });
    });
    expect(await run.exit).toBe(ExitCode.FAILURE);
    expect(run.err.join('')).toContain(`port ${port} on 127.0.0.1 is in use; choose another with --port`);
    expect(closed).toBe(true);
    await new Promise((resolve) => blocker.close(resolve));
  });

  it.each([
    [['--port', 'abc'], "--port: expected a whole number from 0 to 65535 (0 picks a free port), got 'abc'"],
    [['--port', '70000'], "got '70000'"],
    [['--user', 'nocolon'], "--user: expected name:password (for example demo:demo), got 'nocolon'"],
    [['--user', 'a:b', '--read-only-user', 'a:c'], "the account 'a' is given twice"],
    [['--colour'], "Unknown option '--colour'"],
    [['extra'], 'Unexpected argument'],
  ])('refuses %j with exit code 2 before starting anything', async (args, message) => {
    let created = false;
    const run = startCommand(args, (options) => {
      created = true;
      return createDefaultCore(options);
    });
    expect(await run.exit).toBe(ExitCode.USAGE);
    expect(run.err.join('')).toContain(message);
    expect(run.err.join('')).toContain("Run 'ringflow simulator --help'");
    expect(created).toBe(false);
  });

  it('gives up waiting on a second signal, with exit code 1', async () => {
    const core = await createDefaultCore({
      clock: { now: () => 0, setTimeout: () => ({}), clearTimeout: () => {} },
      warn: () => {},
    });
    let releaseClose: () => void = () => {};
    const slow: RunningCore = {
      handle: (r) => core.handle(r),
      connectEvents: (r, d) => core.connectEvents(r, d),
      close: () =>
        new Promise<void>((resolve) => {
          releaseClose = resolve;
        }),
    };
    const run = startCommand(['--port', '0'], () => slow);
    await run.ready;
    run.stop();
    await new Promise((resolve) => setImmediate(resolve));
    run.again();
    expect(await run.exit).toBe(ExitCode.FAILURE);
    expect(run.err.join('')).toContain('second stop signal');
    releaseClose();
  });
});
