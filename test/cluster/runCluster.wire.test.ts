import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { systemClock } from '@ringflow/client';
import { JetStreamCallStore } from '@ringflow/cluster';
import { createSimulator } from '@ringflow/simulator';
import { until as untilTrue } from '@ringflow/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { dialPerCall } from './dialPerCall.ts';
import { startRoundRobin } from './roundRobin.ts';
import { startNatsServer } from './startNatsServer.ts';

const bin = fileURLToPath(new URL('../../packages/cli/bin/ringflow.js', import.meta.url));
const ivr = fileURLToPath(new URL('../../flows/ivr.yaml', import.meta.url));

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Spawns the real `ringflow` command; `until(text)` resolves once its stdout matches. */
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
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const until = async (text: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = text.exec(stdout);
      if (match) return match;
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}; stderr: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${text}; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { child, exit, until, output: () => ({ stdout, stderr }) };
}

/** Waits for `check` to hold; 60 s by default (processes start and NATS elects leaders). */
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) =>
  untilTrue(what, check, { timeoutMs, everyMs: 25 });

describe('ringflow run --cluster', () => {
  it('names the bad option', async () => {
    const alone = ringflow(['run', ivr, '--cluster', 'nats://127.0.0.1:4222']);
    expect(await alone.exit).toBe(2);
    expect(alone.output().stderr).toMatch(/--cluster goes with --server .* or --listen/);
    const listen = ['run', ivr, '--listen', '127.0.0.1:0'];
    const bad = ringflow([...listen, '--cluster', 'http://127.0.0.1:4222']);
    expect(await bad.exit).toBe(2);
    expect(bad.output().stderr).toMatch(
      /--cluster: expected a NATS address such as nats:\/\/127.0.0.1:4222 \(or several, comma separated\), got 'http:\/\/127.0.0.1:4222'/,
    );
    const nobody = ringflow([...listen, '--cluster', 'nats://127.0.0.1:1']);
    expect(await nobody.exit).toBe(1);
    expect(nobody.output().stderr).toMatch(
      /--cluster: JetStreamCallStore: cannot connect to NATS at nats:\/\/127.0.0.1:1/,
    );
  });

  it('--listen --cluster: ready once listening with NATS up; not ready, saying why, while NATS is away', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const run = ringflow([
      'run',
      ivr,
      '--listen',
      '127.0.0.1:0',
      '--app',
      'ivr',
      '--cluster',
      nats.url,
      '--http',
      '127.0.0.1:0',
      '--format',
      'json',
    ]);
    let ops = '';
    await until('the probes to be served', () => {
      const m = /probes on (http:\/\/127\.0\.0\.1:\d+)\/healthz/.exec(run.output().stderr);
      ops = m?.[1] ?? '';
      return ops !== '';
    });
    const readyz = async () => {
      const reply = await fetch(`${ops}/readyz`);
      return { status: reply.status, text: await reply.text() };
    };
    // Before any server dialled it (a load balancer's probe must see it ready, or no call comes).
    await until('ready while listening', async () => (await readyz()).status === 200);
    await nats.kill();
    await until('not ready while NATS is away', async () => {
      const r = await readyz();
      return r.status === 503 && /NATS connection is lost/.test(r.text);
    });
    await nats.start();
    await until('ready again once NATS is back', async () => (await readyz()).status === 200);
  });

  it('SIGTERM hands the calls over: another ringflow run --cluster takes them and finishes the flow', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const args = [
      'run',
      ivr,
      '--listen',
      '127.0.0.1:0/ari-call',
      '--app',
      'ivr',
      '--listen-user',
      'pbx',
      '--listen-password',
      'secret',
      '--cluster',
      nats.url,
      '--input',
      'openingHours=Daily 24h',
      '--format',
      'json',
    ];
    // The runtime's log line: {"level":30,...,"url":"ws://127.0.0.1:<port>/ari-call","msg":"listening for servers"}
    const listening = /"url":"ws:\/\/127\.0\.0\.1:(\d+)[^"]*","msg":"listening for servers"/;
    const first = ringflow(args);
    const second = ringflow(args);
    const ports = [Number((await first.until(listening))[1]), Number((await second.until(listening))[1])];
    // A round robin that tries the next process when one refuses (the first, once stopped).
    const proxy = await startRoundRobin(ports);
    cleanups.push(() => proxy.close());

    const sim = createSimulator({
      clock: systemClock,
      dialplan: { text: '[pbx]\nexten => 100,1,Stasis(ivr)\n same => n,Hangup()\n' },
    });
    cleanups.push(() => sim.close());
    const outbound = dialPerCall(sim, proxy.port);
    cleanups.push(() => outbound.close());
    const heard: string[] = [];
    let hungUp = false;
    const call = sim.driver.placeCall({ context: 'pbx', to: '100' });
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent') heard.push(String(e.eventname));
      if (e.type === 'ChannelDestroyed' && (e.channel as { id?: string } | undefined)?.id === call)
        hungUp = true;
    });
    const observer = await JetStreamCallStore.connect(nats.url, {
      bucket: 'ringflow-calls',
      owner: 'observer',
    });
    cleanups.push(() => observer.close());
    await until('the call in the main menu on the first process', async () =>
      (await observer.list()).some((r) =>
        JSON.stringify((r.machine as { value?: unknown }).value).includes('main-menu'),
      ),
    );
    const firstOwner = await observer.ownerOf(call);

    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(first.output().stderr).toMatch(/SIGTERM: handing 1 call over to the cluster/);
    await second.until(/"msg":"the server re-dialled: call taken over"/);
    expect(await observer.ownerOf(call)).not.toBe(firstOwner);

    sim.driver.pressDigits(call, '3');
    await until('the call finished its flow on the second process', () => hungUp, 60_000);
    expect(heard.filter((h) => h === 'VoicemailLeft')).toHaveLength(1);
    expect(outbound.failedCalls).toBe(0);
    await until('its record removed', async () => (await observer.list()).length === 0);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  }, 180_000);
});
