import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ringflow } from './spawnRingflow.ts';

const ivr = fileURLToPath(new URL('../../flows/ivr.yaml', import.meta.url));

describe('ringflow call', () => {
  it('calls a flow run by `ringflow run` on `ringflow simulator`: answered, prompts, keys, hang-up', async () => {
    const sim = ringflow(['simulator', '--port', '0']);
    const server = /listening on (http:\/\/\S+)\/ari/.exec(await sim.until(/listening on \S+\n/))![1]!;
    const app = ringflow([
      'run',
      ivr,
      '--server',
      server,
      '--user',
      'demo',
      '--password',
      'demo',
      '--app',
      'ringflow-demo',
    ]);
    try {
      await app.until('"application started"');
      const call = ringflow([
        'call',
        '--server',
        server,
        '100',
        '--wait',
        '1s',
        '--press',
        '1',
        '--wait',
        '500ms',
      ]);
      expect(await call.exit).toBe(0);
      const { stdout } = call.output();
      expect(stdout).toMatch(/calling 100 \(channel \S+\)/);
      expect(stdout).toMatch(/ringing\n.*answered/s);
      expect(stdout).toMatch(/playing sound:/);
      expect(stdout).toMatch(/pressing 1\n.*key 1 received/s);
      expect(stdout).toMatch(/hung up: Normal Clearing \(cause 16\)/);
      // The server repeats the request (the soft one, then the hang-up): told once.
      expect(stdout.match(/hang-up requested/g)).toHaveLength(1);
    } finally {
      app.child.kill('SIGTERM');
      sim.child.kill('SIGTERM');
      await Promise.all([app.exit, sim.exit]);
    }
  });

  it('says why a call that nothing answers ends at once, and what to do (issue 28, point 7)', async () => {
    const sim = ringflow(['simulator', '--port', '0']);
    const server = /listening on (http:\/\/\S+)\/ari/.exec(await sim.until(/listening on \S+\n/))![1]!;
    try {
      // Nothing runs as ringflow-demo, where the simulator's dialplan sends 100.
      const call = ringflow(['call', '--server', server, '100', '--wait', '1s']);
      expect(await call.exit).toBe(1);
      const { stdout, stderr } = call.output();
      expect(stdout).toMatch(/ringing\n.*dialplan from-callers,100: Stasis\(ringflow-demo,100\)/s);
      expect(stderr).toContain(
        "the dialplan (context from-callers, extension 100) sent the call to Stasis(ringflow-demo), but no application 'ringflow-demo' is connected",
      );
      expect(stderr).toContain(
        `ringflow run <flow.yaml> --server ${server} --user <name:password> --app ringflow-demo`,
      );
      expect(stderr).toContain('--app <name>');

      const direct = ringflow(['call', '--server', server, '--app', 'nobody']);
      expect(await direct.exit).toBe(1);
      expect(direct.output().stderr).toContain("no application 'nobody' is connected to the simulator");
    } finally {
      sim.child.kill('SIGTERM');
      await sim.exit;
    }
  });

  it('notices a simulator that goes away during the call at once, with exit 1', async () => {
    const sim = ringflow(['simulator', '--port', '0']);
    const server = /listening on (http:\/\/\S+)\/ari/.exec(await sim.until(/listening on \S+\n/))![1]!;
    // --drain 1s: the call the application holds has no server left to end it.
    const app = ringflow([
      'run',
      ivr,
      '--server',
      server,
      '--user',
      'demo:demo',
      '--app',
      'ringflow-demo',
      '--drain',
      '1s',
    ]);
    try {
      await app.until('"application started"');
      // A minute of waiting: without noticing, the command would still be waiting when the test times out.
      const call = ringflow(['call', '--server', server, '100', '--wait', '60s']);
      await call.until('answered');
      sim.child.kill('SIGKILL');
      expect(await call.exit).toBe(1);
      expect(call.output().stderr).toMatch(/the simulator at \S+ went away during the call/);
    } finally {
      app.child.kill('SIGTERM');
      sim.child.kill('SIGTERM');
      await Promise.all([app.exit, sim.exit]);
    }
  }, 15_000);

  it('names the bad option, and says when the account is refused', async () => {
    const badKey = ringflow(['call', '--server', 'http://127.0.0.1:1', '100', '--press', 'x']);
    expect(await badKey.exit).toBe(2);
    expect(badKey.output().stderr).toMatch(/--press: expected keys 0-9, \*, #, A-D .* got 'x'/);
    const badWait = ringflow(['call', '--server', 'http://127.0.0.1:1', '100', '--wait', 'soon']);
    expect(await badWait.exit).toBe(2);
    expect(badWait.output().stderr).toMatch(/--wait: expected a duration/);
    const noServer = ringflow(['call', '100']);
    expect(await noServer.exit).toBe(2);
    expect(noServer.output().stderr).toMatch(/--server is required/);

    const sim = ringflow(['simulator', '--port', '0']);
    const server = /listening on (http:\/\/\S+)\/ari/.exec(await sim.until(/listening on \S+\n/))![1]!;
    try {
      const refused = ringflow(['call', '--server', server, '--user', 'demo:wrong', '100']);
      expect(await refused.exit).toBe(1);
      expect(refused.output().stderr).toMatch(/401/);
    } finally {
      sim.child.kill('SIGTERM');
      await sim.exit;
    }
  });
});

describe('ringflow run --http', () => {
  it('names the bad option', async () => {
    const base = [
      'run',
      'flows/ivr.yaml',
      '--server',
      'http://127.0.0.1:1',
      '--user',
      'u',
      '--password',
      'p',
    ];
    const bad = ringflow([...base, '--http', 'localhost']);
    expect(await bad.exit).toBe(2);
    expect(bad.output().stderr).toMatch(/--http: expected host:port or a port .* got 'localhost'/);
    const port = ringflow([...base, '--http', '127.0.0.1:99999']);
    expect(await port.exit).toBe(2);
    expect(port.output().stderr).toMatch(/--http/);
    const alone = ringflow(['run', 'flows/ivr.yaml', '--http', '9464']);
    expect(await alone.exit).toBe(2);
    expect(alone.output().stderr).toMatch(/--http goes with --server or --listen/);
  });
});
