import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { systemClock } from '@ringflow/client';
import { createSimulator, type PublishedEvent, startWireServer } from '@ringflow/simulator';
import { HOLDING, holds, onCleanup, type Proc, said, until } from './classicProcesses.ts';
import { dialPerCall } from './dialPerCall.ts';
import { startRoundRobin } from './roundRobin.ts';
import { startNatsServer } from './startNatsServer.ts';

/**
 * `ringflow run flows/support-queue.yaml --cluster` processes (the application named `ivr`) on a
 * simulator over the wire and a real `nats-server -js`, for the shared-queue tests: the agents
 * PJSIP/202 and 203 answer at once, PJSIP/201 after 4 s. Classic mode (`--server`, one process
 * holds the event connection) or per-call connections (`--listen`, behind a round robin).
 */

const bin = fileURLToPath(new URL('../../packages/cli/bin/ringflow.js', import.meta.url));
const flow = fileURLToPath(new URL('../../flows/support-queue.yaml', import.meta.url));
const DIALPLAN = '[pbx]\nexten => _X.,1,Stasis(ivr)\n same => n,Hangup()\n';

/** A process with its metrics address (from `--http 127.0.0.1:0`). */
export interface QueueProc extends Proc {
  metricsUrl: string;
}

function ringflow(args: readonly string[]): QueueProc {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const p: QueueProc = {
    child,
    lines: [],
    stderr: '',
    owner: '',
    dead: false,
    metricsUrl: '',
    exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
  child.stderr!.setEncoding('utf8').on('data', (t: string) => {
    p.stderr += t;
    const owner = /\(process ([^)]+)\)/.exec(p.stderr);
    if (owner) p.owner = owner[1]!;
    const metrics = /metrics on (http:\/\/\S+)\/metrics/.exec(p.stderr);
    if (metrics) p.metricsUrl = metrics[1]!;
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      p.lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {}
  });
  onCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return p;
}

/**
 * A gauge or counter of a process's /metrics, by its labels as written
 * (`queue="support",state="wrapUp"`; '' for a metric without labels).
 */
export async function metric(p: QueueProc, name: string, labels: string): Promise<number | undefined> {
  const text = await (await fetch(`${p.metricsUrl}/metrics`)).text();
  const head = labels === '' ? `${name} ` : `${name}{${labels}} `;
  const line = text.split('\n').find((l) => l.startsWith(head));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Starts NATS, the simulator and `processes` processes; `mode` says how the server reaches them. */
export async function startQueueCluster(processes: number, mode: 'classic' | 'perCall') {
  const nats = await startNatsServer();
  onCleanup(() => nats.stop());
  const sim = createSimulator({
    clock: systemClock,
    dialplan: { text: DIALPLAN },
    endpoints: { 'PJSIP/201': { answerAfterMs: 4_000 }, 'PJSIP/202': 'answer', 'PJSIP/203': 'answer' },
  });
  onCleanup(() => sim.close());
  const common = ['--app', 'ivr', '--cluster', nats.url, '--format', 'json', '--http', '127.0.0.1:0'];
  const procs: QueueProc[] = [];
  if (mode === 'classic') {
    const wire = await startWireServer(sim, {
      users: [{ username: 'ringflow', password: 'secret' }],
      clock: systemClock,
    });
    onCleanup(() => wire.close());
    const args = [
      'run',
      flow,
      '--server',
      `http://127.0.0.1:${wire.port}`,
      '--user',
      'ringflow',
      '--password',
      'secret',
      // A dead worker's calls are taken over within a few seconds.
      '--cluster-lease',
      '3s',
      ...common,
    ];
    for (let i = 0; i < processes; i++) {
      const p = ringflow(args);
      procs.push(p);
      await until(`process ${i + 1} to start`, () => {
        if (p.child.exitCode !== null) throw new Error(`exited ${p.child.exitCode}: ${p.stderr}`);
        return said(p, 'application started').length > 0 && p.metricsUrl !== '';
      });
    }
    await until(`one process to say "${HOLDING}"`, () => procs.some(holds));
    await until('every process to list every worker', () =>
      procs.every((p) => {
        const changes = said(p, 'cluster workers changed');
        return (changes.at(-1)?.workers as unknown[] | undefined)?.length === processes;
      }),
    );
  } else {
    const args = [
      'run',
      flow,
      '--listen',
      '127.0.0.1:0/ari-call',
      '--listen-user',
      'pbx',
      '--listen-password',
      'secret',
      ...common,
    ];
    const ports: number[] = [];
    for (let i = 0; i < processes; i++) {
      const p = ringflow(args);
      procs.push(p);
      const line = await until(`process ${i + 1} to listen`, () => {
        if (p.child.exitCode !== null) throw new Error(`exited ${p.child.exitCode}: ${p.stderr}`);
        return p.metricsUrl !== '' && said(p, 'listening for servers')[0];
      });
      ports.push(Number(new URL(String(line.url)).port));
    }
    const rr = await startRoundRobin(ports);
    onCleanup(() => rr.close());
    const outbound = dialPerCall(sim, rr.port);
    onCleanup(() => outbound.close());
  }
  const world: PublishedEvent[] = [];
  sim.driver.onEvent((e) => world.push(e));
  /** The agent channels of an endpoint that existed at the same time, at most (the simulator's events). */
  const mostAtOnce = (endpoint: string) => {
    let now = 0;
    let most = 0;
    for (const e of world) {
      const name = String((e.channel as { name?: string } | undefined)?.name);
      if (!name.startsWith(`${endpoint}-`)) continue;
      if (e.type === 'ChannelCreated') most = Math.max(most, ++now);
      if (e.type === 'ChannelDestroyed') now--;
    }
    return most;
  };
  /** The callers put through to an agent, in order (bridged with its channel: the simulator's events). */
  const putThrough = (endpoint: string) => {
    const members = new Map<string, Set<string>>();
    const order: string[] = [];
    for (const e of world) {
      if (e.type !== 'ChannelEnteredBridge' && e.type !== 'ChannelLeftBridge') continue;
      const bridge = String((e.bridge as { id?: string }).id);
      const channel = e.channel as { id: string; name: string };
      const inBridge = members.get(bridge) ?? new Set<string>();
      members.set(bridge, inBridge);
      const key = `${channel.id} ${channel.name}`;
      if (e.type === 'ChannelLeftBridge') inBridge.delete(key);
      else inBridge.add(key);
      const names = [...inBridge];
      if (!names.some((n) => n.split(' ')[1]!.startsWith(`${endpoint}-`))) continue;
      for (const n of names) {
        const [id, name] = n.split(' ') as [string, string];
        if (!name.startsWith(`${endpoint}-`) && !order.includes(id)) order.push(id);
      }
    }
    return order;
  };
  /** The callers answered by an agent, in order (`SupportAnswered` user events): channel and agent. */
  const answered = () =>
    world
      .filter((e) => e.type === 'ChannelUserevent' && e.eventname === 'SupportAnswered')
      .map((e) => ({
        call: (e.channel as { id?: string } | undefined)?.id,
        agent: (e.userevent as { agent?: string } | undefined)?.agent,
      }));
  /** The prompts started on a channel. */
  const heard = (channel: string) =>
    world
      .filter(
        (e) =>
          e.type === 'PlaybackStarted' &&
          (e.playback as { target_uri?: string } | undefined)?.target_uri === `channel:${channel}`,
      )
      .map((e) => String((e.playback as { media_uri?: string }).media_uri));
  /** The agent's channel that is up now. */
  const agentUp = async (endpoint: string) => {
    const list = await sim.handle({ method: 'GET', path: '/channels', query: {} });
    return (list.body as { id: string; name: string; state: string }[]).find(
      (c) => c.name.startsWith(`${endpoint}-`) && c.state === 'Up',
    )?.id;
  };
  /** Whether a channel is gone. */
  const gone = (channel: string) =>
    world.some((e) => e.type === 'ChannelDestroyed' && (e.channel as { id?: string }).id === channel);
  /**
   * The process whose log says, latest in time, that the call started or was restored there
   * (not the last process in order that ever held it: a process restoring the call of a killed
   * one may come before it).
   */
  const holderOf = (call: string) => {
    let latest: { proc: QueueProc; time: number } | undefined;
    for (const p of procs)
      for (const l of p.lines)
        if (
          l.call === call &&
          (l.msg === 'call started' || l.msg === 'call restored from its record') &&
          (latest === undefined || (l.time as number) >= latest.time)
        )
          latest = { proc: p, time: l.time as number };
    return latest?.proc;
  };
  /** What went on, for a failing test: each process's warnings and errors, the server's calls. */
  const tell = async () => {
    for (const [i, p] of procs.entries())
      if (!p.dead && p.metricsUrl !== '')
        console.log(
          `process ${i + 1} queue metrics`,
          (await fetch(`${p.metricsUrl}/metrics`).then((r) => r.text(), String))
            .split('\n')
            .filter(
              (l) => l.startsWith('ringflow_queue_agents') || l.startsWith('ringflow_queue_callers_waiting'),
            )
            .join('\n'),
        );
    for (const [i, p] of procs.entries())
      console.log(
        `process ${i + 1} (${p.owner})`,
        p.stderr.slice(-1_500),
        JSON.stringify(
          p.lines.filter((l) => (l.level as number) >= 40).map((l) => [l.msg, l.call ?? '', l.err ?? '']),
        ).slice(0, 3_000),
      );
    console.log(
      JSON.stringify(
        world
          .filter((e) => ['StasisStart', 'ChannelDestroyed', 'ChannelUserevent', 'Dial'].includes(e.type))
          .map((e) => [
            e.type,
            (e.channel as { name?: string } | undefined)?.name ??
              (e.peer as { name?: string } | undefined)?.name,
            e.dialstatus ?? e.eventname ?? '',
          ]),
      ).slice(0, 4_000),
    );
  };
  return { nats, sim, procs, world, mostAtOnce, putThrough, answered, heard, agentUp, gone, holderOf, tell };
}
