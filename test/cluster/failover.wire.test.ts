import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { systemClock } from '@ringflow/client';
import { JetStreamCallStore } from '@ringflow/cluster';
import type { CallRecord } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as connectNats } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { dialPerCall } from './dialPerCall.ts';
import { startRoundRobin } from './roundRobin.ts';
import { startNatsServer } from './startNatsServer.ts';

/**
 * Cluster mode with per-call connections (issue 19, "two ways calls arrive" (a)): three ringflow
 * processes run the shipped IVR behind a TCP round robin, their call records in one JetStream
 * bucket; the simulator (over the wire, real clock) dials one connection per call. One process is
 * killed with SIGKILL while its calls wait in the main menu: the server re-dials each of those
 * calls' connections, the round robin sends them to the processes still alive, which claim the
 * calls in the bucket, restore them from their records and finish the flow.
 */

const worker = fileURLToPath(new URL('./clusterWorker.ts', import.meta.url));
const CALLS = 9;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Worker {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  /** Every JSON line it printed (runtime log and the worker's own lines). */
  readonly lines: Record<string, unknown>[];
  dead: boolean;
}

async function startWorker(natsUrl: string, bucket: string, name: string): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, natsUrl, bucket, name], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      errors += `${line}\n`;
    }
  });
  const w: Worker = { name, child, port: 0, lines, dead: false };
  cleanups.push(() => {
    if (!w.dead) child.kill('SIGKILL');
  });
  const ready = await until(
    `${name} to listen`,
    () => {
      if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode}: ${errors}`);
      return lines.find((l) => l.worker === 'ready');
    },
    90_000,
  );
  return Object.assign(w, { port: ready.port as number });
}

const DIALPLAN = '[pbx]\nexten => 100,1,Stasis(ivr)\n same => n,Hangup()\n';

describe('cluster mode, per-call connections: a process killed mid-call', () => {
  it('its calls are re-dialled to the others, restored from the JetStream bucket, and finish the IVR', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const bucket = 'failover';
    const workers: Worker[] = [];
    for (const name of ['w1', 'w2', 'w3']) workers.push(await startWorker(nats.url, bucket, name));
    const rr = await startRoundRobin(workers.map((w) => w.port));
    cleanups.push(() => rr.close());
    const port = rr.port;
    // The test reads the bucket as a fourth process would (it never writes).
    const observer = await JetStreamCallStore.connect(nats.url, { bucket, owner: 'observer' });
    cleanups.push(() => observer.close());

    const sim = createSimulator({ clock: systemClock, dialplan: { text: DIALPLAN } });
    cleanups.push(() => sim.close());
    const outbound = dialPerCall(sim, port);
    cleanups.push(() => outbound.close());
    const voicemails = new Set<string>();
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent' && e.eventname === 'VoicemailLeft')
        voicemails.add(String((e.channel as { id?: string } | undefined)?.id));
    });

    const calls = Array.from({ length: CALLS }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    // Every call waits in the main menu, its record in the bucket says so.
    const inMenu = (r: CallRecord) =>
      JSON.stringify((r.machine as { value?: unknown }).value).includes('main-menu');
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === CALLS && records.every(inMenu);
    });
    const owners = new Map<string, string | undefined>();
    for (const call of calls) owners.set(call, await observer.ownerOf(call));
    expect(new Set(owners.values())).toEqual(new Set(['w1', 'w2', 'w3']));

    const victim = workers[0]!;
    const victimCalls = calls.filter((c) => owners.get(c) === victim.name);
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    victim.dead = true;
    const survivors = workers.slice(1);

    // The server re-dials each of the victim's calls; a survivor claims and restores it.
    const takenOver = await until('the victim calls taken over', () => {
      const seen = new Map<string, { by: string; at: number }>();
      for (const w of survivors)
        for (const l of w.lines)
          if (l.msg === 'the server re-dialled: call taken over' && victimCalls.includes(l.call as string))
            seen.set(l.call as string, { by: w.name, at: l.time as number });
      return seen.size === victimCalls.length ? seen : undefined;
    });
    for (const call of victimCalls) expect(await observer.ownerOf(call)).toBe(takenOver.get(call)!.by);

    // The callers choose voicemail (3) now, on every call, and stay silent until it ends.
    for (const call of calls) sim.driver.pressDigits(call, '3');
    const ended = await until(
      'every call ended',
      () => {
        const all = survivors.flatMap((w) =>
          w.lines
            .filter((l) => l.worker === 'ended')
            .map((l) => ({ call: l.call as string, outcome: l.outcome as string, by: w.name })),
        );
        return all.filter((e) => calls.includes(e.call)).length >= CALLS ? all : undefined;
      },
      90_000,
    );

    // Each call finished its flow once, on one process: the victim's on the one that took it over.
    const byCall = new Map(ended.map((e) => [e.call, e]));
    expect(ended).toHaveLength(CALLS);
    for (const call of calls) {
      expect(byCall.get(call)?.outcome).toBe('completed');
      expect(byCall.get(call)?.by).toBe(
        victimCalls.includes(call) ? takenOver.get(call)!.by : owners.get(call),
      );
    }
    expect(voicemails).toEqual(new Set(calls));
    expect(outbound.failedCalls).toBe(0);
    expect(outbound.opened.perCall).toBe(CALLS + victimCalls.length);
    expect(await observer.list()).toEqual([]);

    // What the calls cost in the bucket: every create, update, claim and purge is one message.
    const nc = await connectNats({ servers: nats.url });
    const writes = (await (await jetstreamManager(nc)).streams.info(`KV_${bucket}`)).state.last_seq;
    await nc.close();
    console.log(
      `KV writes: ${writes} for ${CALLS} calls (${(writes / CALLS).toFixed(1)} per call, with ${victimCalls.length} claims and ${CALLS} removals)`,
    );
    const times = victimCalls.map((c) => takenOver.get(c)!.at - killedAt);
    console.log(
      `takeover after SIGKILL of ${victim.name}: ${victimCalls.length} calls, ms after the kill: ${times.join(', ')} (max ${Math.max(...times)})`,
    );
  }, 240_000);

  it('a rolling restart, one process after the other under calls: SIGTERM hands the calls of each over, none is dropped', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const bucket = 'rolling';
    const olds: Worker[] = [];
    for (const name of ['old1', 'old2', 'old3']) olds.push(await startWorker(nats.url, bucket, name));
    // The round robin reads this list at each connection: a process leaves it before its SIGTERM,
    // its replacement joins it once listening (a load balancer's deploy would do the same).
    const ports = olds.map((w) => w.port);
    const rr = await startRoundRobin(ports);
    cleanups.push(() => rr.close());
    const port = rr.port;
    const observer = await JetStreamCallStore.connect(nats.url, { bucket, owner: 'observer' });
    cleanups.push(() => observer.close());
    const sim = createSimulator({ clock: systemClock, dialplan: { text: DIALPLAN } });
    cleanups.push(() => sim.close());
    const outbound = dialPerCall(sim, port);
    cleanups.push(() => outbound.close());
    const voicemails = new Set<string>();
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent' && e.eventname === 'VoicemailLeft')
        voicemails.add(String((e.channel as { id?: string } | undefined)?.id));
    });
    const calls = Array.from({ length: CALLS }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    const inMenu = (r: CallRecord) =>
      JSON.stringify((r.machine as { value?: unknown }).value).includes('main-menu');
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === CALLS && records.every(inMenu);
    });

    const news: Worker[] = [];
    for (const [i, old] of olds.entries()) {
      const replacement = await startWorker(nats.url, bucket, `new${i + 1}`);
      news.push(replacement);
      ports.push(replacement.port);
      ports.splice(ports.indexOf(old.port), 1);
      old.child.kill('SIGTERM');
      const code = await new Promise<number | null>((resolve) => old.child.once('exit', resolve));
      old.dead = true;
      expect(code).toBe(0);
      // Every call it had is owned by a process still running before the next one goes.
      await until(`the calls of ${old.name} taken over`, async () => {
        for (const call of calls) if ((await observer.ownerOf(call)) === old.name) return false;
        return true;
      });
    }
    for (const call of calls) expect(['new1', 'new2', 'new3']).toContain(await observer.ownerOf(call));

    for (const call of calls) sim.driver.pressDigits(call, '3');
    const ended = await until(
      'every call ended',
      () => {
        const all = news.flatMap((w) =>
          w.lines
            .filter((l) => l.worker === 'ended')
            .map((l) => ({ call: l.call as string, outcome: l.outcome as string })),
        );
        return all.length >= CALLS ? all : undefined;
      },
      90_000,
    );
    expect(ended).toHaveLength(CALLS);
    expect(new Set(ended.map((e) => e.call))).toEqual(new Set(calls));
    expect(ended.every((e) => e.outcome === 'completed')).toBe(true);
    // The old processes only let calls go (handed over), never ended one otherwise.
    for (const old of olds)
      expect(old.lines.filter((l) => l.worker === 'ended').every((l) => l.outcome === 'detached')).toBe(true);
    expect(voicemails).toEqual(new Set(calls));
    expect(outbound.failedCalls).toBe(0);
    // Each record is removed as its call ends (the purge lands just after the call's end).
    await until('the bucket empty', async () => (await observer.list()).length === 0);
    const handovers = olds.flatMap((w) => w.lines.filter((l) => l.worker === 'ended')).length;
    console.log(
      `rolling restart: ${handovers} handovers of ${CALLS} calls, all completed on the new processes`,
    );
  }, 240_000);
});
