import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../packages/cli/bin/ringflow.js', import.meta.url));

/** Spawns the real `ringflow` command, as a user would run it. */
function ringflow(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => {
    stdout += t;
  });
  child.stderr.setEncoding('utf8').on('data', (t: string) => {
    stderr += t;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    void exit.then((code) =>
      reject(new Error(`exited with ${code} before printing a line; stderr: ${stderr}`)),
    );
  });
  // Not every test waits for a line; a command that exits early must not be an unhandled rejection.
  firstLine.catch(() => {});
  return { child, exit, firstLine, output: () => ({ stdout, stderr }) };
}

describe('the ringflow command', () => {
  it('runs the simulator on a free port, answers ping, and exits 0 on SIGTERM', async () => {
    const run = ringflow(['simulator', '--port', '0']);
    const line = await run.firstLine;
    const match = /^listening on (http:\/\/127\.0\.0\.1:(\d+)\/ari)$/.exec(line);
    expect(match, line).not.toBeNull();
    expect(Number(match![2])).toBeGreaterThan(0);
    const ping = await request(`${match![1]}/asterisk/ping`, {
      headers: { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` },
    });
    expect(ping.statusCode).toBe(200);
    expect(await ping.body.json()).toMatchObject({ ping: 'pong' });
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.output().stdout).toBe(`${line}\n`);
  });

  it('--sounds adds the prompts of a folder, with their durations, to the sounds the server lists and plays', async () => {
    const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-sounds-'));
    await mkdir(join(dir, 'en', 'acme'), { recursive: true });
    await writeFile(join(dir, 'en', 'acme', 'welcome.gsm'), Buffer.alloc(33 * 100));
    const run = ringflow(['simulator', '--port', '0', '--sounds', dir]);
    const url = /^listening on (\S+)$/.exec(await run.firstLine)![1];
    const reply = await request(`${url}/sounds/acme%2Fwelcome`, {
      headers: { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` },
    });
    expect(reply.statusCode).toBe(200);
    expect(await reply.body.json()).toMatchObject({
      id: 'acme/welcome',
      formats: [{ language: 'en', format: 'gsm' }],
    });
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.output().stderr).toContain(`${dir}: 1 sound added`);
  });

  it('the accounts of --user are configuration: res_ari/user/<name> lists them, and they cannot be changed', async () => {
    const run = ringflow([
      'simulator',
      '--port',
      '0',
      '--user',
      'alice:secret',
      '--read-only-user',
      'bob:pw',
    ]);
    const url = /^listening on (\S+)$/.exec(await run.firstLine)![1];
    const auth = { Authorization: `Basic ${Buffer.from('alice:secret').toString('base64')}` };
    const alice = await request(`${url}/core/config/dynamic/res_ari/user/alice`, { headers: auth });
    expect(alice.statusCode).toBe(200);
    expect(await alice.body.json()).toEqual(
      expect.arrayContaining([
        { attribute: 'read_only', value: 'no' },
        { attribute: 'password', value: 'secret' },
      ]),
    );
    const bob = await request(`${url}/asterisk/config/dynamic/res_ari/user/bob`, { headers: auth });
    expect(await bob.body.json()).toEqual(expect.arrayContaining([{ attribute: 'read_only', value: 'yes' }]));
    const change = await request(`${url}/core/config/dynamic/res_ari/user/alice`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: [{ attribute: 'password', value: 'other' }] }),
    });
    expect(change.statusCode).toBe(403);
    await change.body.dump();
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('--server-resource asterisk publishes the server resource as a real server does (core by default)', async () => {
    const auth = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };
    for (const [args, name] of [
      [[], 'core'],
      [['--server-resource', 'asterisk'], 'asterisk'],
    ] as const) {
      const run = ringflow(['simulator', '--port', '0', ...args]);
      const url = /^listening on (\S+)$/.exec(await run.firstLine)![1];
      const listing = await request(`${url}/api-docs/resources.json`, { headers: auth });
      const paths = ((await listing.body.json()) as { apis: { path: string }[] }).apis.map((a) => a.path);
      expect(paths).toContain(`/api-docs/${name}.{format}`);
      run.child.kill('SIGTERM');
      expect(await run.exit).toBe(0);
    }
    const wrong = ringflow(['simulator', '--server-resource', 'ari']);
    expect(await wrong.exit).toBe(2);
    expect(wrong.output().stderr).toContain("--server-resource: expected core or asterisk, got 'ari'");
  });

  it('--endpoint lists the endpoints that can be dialled; any other fails as on a real server', async () => {
    const run = ringflow([
      'simulator',
      '--port',
      '0',
      '--endpoint',
      'PJSIP/operator=answer:2',
      '--endpoint',
      'PJSIP/busy=busy',
    ]);
    const url = /^listening on (\S+)$/.exec(await run.firstLine)![1];
    const auth = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };
    const originate = async (endpoint: string) => {
      const reply = await request(`${url}/channels?endpoint=${encodeURIComponent(endpoint)}&app=x`, {
        method: 'POST',
        headers: auth,
      });
      return [reply.statusCode, await reply.body.json()];
    };
    expect((await originate('PJSIP/operator'))[0]).toBe(200);
    expect((await originate('PJSIP/busy'))[0]).toBe(200);
    expect(await originate('PJSIP/nobody')).toEqual([500, { error: 'Allocation failed' }]);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    const wrong = ringflow(['simulator', '--port', '0', '--endpoint', 'PJSIP/x=sometimes']);
    expect(await wrong.exit).toBe(1);
    expect(wrong.output().stderr).toContain("--endpoint PJSIP/x: 'sometimes' is not a far-end behaviour");
  });

  it('--sounds names a folder that does not exist in words', async () => {
    const run = ringflow(['simulator', '--port', '0', '--sounds', '/nonexistent/prompts']);
    expect(await run.exit).toBe(1);
    expect(run.output().stderr).toContain(
      'cannot read the sounds folder /nonexistent/prompts: no such folder',
    );
  });

  it('exits 0 on SIGINT too', async () => {
    const run = ringflow(['simulator', '--port', '0']);
    await run.firstLine;
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  });

  it('exits 2 on a wrong command line, saying what is wrong on stderr', async () => {
    const run = ringflow(['simulator', '--port', 'eighty']);
    expect(await run.exit).toBe(2);
    expect(run.output().stdout).toBe('');
    expect(run.output().stderr).toContain('--port: expected a whole number from 0 to 65535');
  });
});
