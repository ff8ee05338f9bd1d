/**
 * Cluster mode's throughput and CPU per call against single-process mode: real `ringflow run`
 * processes on the simulator (in this process, real time), the shipped IVR (flows/ivr.yaml, open
 * every day; each caller presses 3 when the main menu starts and leaves a voicemail, which the
 * flow ends). Modes, side by side in one run (the order rotates each run), for each way calls
 * arrive (`--arrival`):
 * - `classic`: the simulator over the wire (`ringflow run --server`): `single` (one process, no
 *   cluster) and `cluster N` (N processes with `--cluster` on a real `nats-server -js` from
 *   Debian's package: one holds the event connection, every one drives calls);
 * - `per-call`: the simulator dials one WebSocket per call (outbound, `per_call_config`) through a
 *   TCP round robin (`ringflow run --listen`): `per-call single` (one process, no store) and
 *   `per-call cluster N` (N processes with `--cluster`: records in NATS, no event stream).
 * Each mode gets a fresh simulator and NATS server; the callers arrive at `--rate` per second for
 * `--seconds`.
 *
 *   npx tsx bench/cluster-scale.ts [--rate 20] [--seconds 20] [--runs 3] [--workers 1,2,4] [--arrival classic,per-call]
 *
 * Reports per mode: the calls that ended per second (from the first call gone to the last; the
 * offered rate as long as the processes keep up), the median call length (it grows when they fall
 * behind), and CPU per completed call of the ringflow processes together, of NATS, and of the
 * simulator (this process), from /proc (user + system). The ringflow processes are first watched
 * idle for 5 s: their idle CPU per second, and their CPU per call above what they would have spent
 * idle over the load's time, tell a per-process cost from a per-call one.
 * Not part of `npm test`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { systemClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { dialPerCall } from '../test/cluster/dialPerCall.ts';
import { type RoundRobin, startRoundRobin } from '../test/cluster/roundRobin.ts';
import { startNatsServer } from '../test/cluster/startNatsServer.ts';
import { fmt, median, spread } from './apps/stats.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '20' },
    runs: { type: 'string', default: '3' },
    workers: { type: 'string', default: '1,2,4' },
    arrival: { type: 'string', default: 'classic,per-call' },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const RUNS = Number(values.runs);
const WORKERS = values.workers.split(',').map(Number);
const ARRIVALS = values.arrival.split(',') as Arrival[];
if (
  !(RATE > 0) ||
  !(SECONDS > 0) ||
  !Number.isInteger(RUNS) ||
  RUNS < 1 ||
  WORKERS.some((n) => !Number.isInteger(n) || n < 1) ||
  ARRIVALS.some((a) => a !== 'classic' && a !== 'per-call')
) {
  process.stderr.write(
    'usage: npx tsx bench/cluster-scale.ts [--rate calls/s > 0] [--seconds > 0] [--runs N > 0] [--workers 1,2,4] [--arrival classic,per-call]\n',
  );
  process.exit(2);
}

const bin = fileURLToPath(new URL('../packages/cli/bin/ringflow.js', import.meta.url));
const ivr = fileURLToPath(new URL('../flows/ivr.yaml', import.meta.url));
const DIALPLAN = '[pbx]\nexten => 100,1,Stasis(ivr)\n same => n,Hangup()\n';
const MAIN_MENU_PROMPT = 'sound:demo-instruct';
/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;
/** How long the processes are watched idle, before the calls, for their idle CPU. */
const IDLE_MS = 5_000;
/** The last call must be gone this long after the last one was placed, or the run fails. */
const DRAIN_LIMIT_MS = 120_000;

/** CPU time (user + system) a process has used, in milliseconds. */
function cpuMsOf(pid: number): number {
  // Fields after the command name (which may hold spaces) start at ") ".
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
}

function selfCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

interface Proc {
  readonly child: ChildProcess;
  readonly messages: string[];
  stderr: string;
  /** With --listen: the port it listens on for the server's connections. */
  listenPort?: number;
}

function ringflow(args: readonly string[]): Proc {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const p: Proc = { child, messages: [], stderr: '' };
  child.stderr!.setEncoding('utf8').on('data', (t: string) => {
    p.stderr += t;
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      const { msg, url } = JSON.parse(line) as { msg?: unknown; url?: unknown };
      if (msg === 'listening for servers' && typeof url === 'string')
        p.listenPort = Number(new URL(url).port);
      // Only the role messages are kept (the per-call lines would grow with the load).
      if (typeof msg === 'string' && !msg.startsWith('call ')) p.messages.push(msg);
    } catch {}
  });
  return p;
}

async function until(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

type Arrival = 'classic' | 'per-call';
type Mode = {
  readonly name: string;
  readonly arrival: Arrival;
  readonly processes: number;
  readonly cluster: boolean;
};

interface RunResult {
  readonly completed: number;
  readonly placed: number;
  readonly callsPerSecond: number;
  readonly medianCallMs: number;
  readonly ringflowCpuMsPerCall: number;
  /** The ringflow processes' CPU with no call, together, per second of wall time. */
  readonly idleMsPerSecond: number;
  /** Their CPU per call less what they would have spent idle over the same time. */
  readonly aboveIdleMsPerCall: number;
  readonly natsCpuMsPerCall: number;
  readonly simulatorCpuMsPerCall: number;
}

async function runOnce(mode: Mode): Promise<RunResult> {
  const nats = mode.cluster ? await startNatsServer() : undefined;
  const sim = createSimulator({ clock: systemClock, dialplan: { text: DIALPLAN } });
  const wire =
    mode.arrival === 'classic'
      ? await startWireServer(sim, {
          users: [{ username: 'ringflow', password: 'secret' }],
          clock: systemClock,
        })
      : undefined;
  let balancer: RoundRobin | undefined;
  let outbound: { close(): unknown } | undefined;
  const procs: Proc[] = [];
  try {
    const args = [
      'run',
      ivr,
      ...(wire
        ? ['--server', `http://127.0.0.1:${wire.port}`, '--user', 'ringflow', '--password', 'secret']
        : ['--listen', '127.0.0.1:0']),
      '--app',
      'ivr',
      '--input',
      'openingHours=Daily 24h',
      '--format',
      'json',
      ...(nats ? ['--cluster', nats.url] : []),
    ];
    for (let i = 0; i < mode.processes; i++) {
      const p = ringflow(args);
      procs.push(p);
      await until(`process ${i + 1} to start`, () => {
        if (p.child.exitCode !== null) throw new Error(`ringflow exited ${p.child.exitCode}: ${p.stderr}`);
        return (
          p.messages.includes('application started') && (wire !== undefined || p.listenPort !== undefined)
        );
      });
    }
    if (!wire) {
      // The server dials one connection per call, spread over the processes by a round robin.
      balancer = await startRoundRobin(procs.map((p) => p.listenPort!));
      outbound = dialPerCall(sim, balancer.port);
    } else if (mode.cluster) {
      await until('a process to hold the event connection', () =>
        procs.some((p) =>
          p.messages.includes('holding the event connection: events go to the JetStream stream'),
        ),
      );
      // Every process lists every worker (calls are assigned among those listed).
      await new Promise((r) => setTimeout(r, 3_000));
    }

    const placedAt = new Map<string, number>();
    const lengths: number[] = [];
    let completed = 0;
    let firstGone = 0;
    let lastGone = 0;
    sim.driver.onEvent((e) => {
      const channelId = (e.channel as { id?: string } | undefined)?.id;
      const playback = e.playback as { target_uri?: string; media_uri?: string } | undefined;
      if (e.type === 'PlaybackStarted' && playback?.media_uri === MAIN_MENU_PROMPT) {
        const target = playback.target_uri?.slice('channel:'.length);
        if (target && placedAt.has(target)) sim.driver.pressDigits(target, '3');
      } else if (e.type === 'ChannelUserevent' && e.eventname === 'VoicemailLeft') completed++;
      else if (e.type === 'ChannelDestroyed' && channelId && placedAt.has(channelId)) {
        lengths.push(Date.now() - placedAt.get(channelId)!);
        if (firstGone === 0) firstGone = Date.now();
        lastGone = Date.now();
      }
    });

    const pids = procs.map((p) => p.child.pid!);
    const natsPid = nats?.pid;
    // Idle first: what the processes spend with no call (lease turns, timers), per second.
    const idleBefore = pids.map(cpuMsOf);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleMsPerSecond =
      (pids.map(cpuMsOf).reduce((sum, ms, i) => sum + ms - idleBefore[i]!, 0) * 1000) / IDLE_MS;
    const cpuBefore = pids.map(cpuMsOf);
    const natsBefore = natsPid ? cpuMsOf(natsPid) : 0;
    const selfBefore = selfCpuMs();
    const start = Date.now();
    const total = Math.round(RATE * SECONDS);
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      const id = sim.driver.placeCall({ context: 'pbx', to: '100' });
      placedAt.set(id, Date.now());
    }
    await until('every call gone', () => lengths.length >= total, DRAIN_LIMIT_MS);
    const ringflowCpu = pids.map(cpuMsOf).reduce((sum, ms, i) => sum + ms - cpuBefore[i]!, 0);
    const loadSeconds = (Date.now() - start) / 1000;
    const natsCpu = natsPid ? cpuMsOf(natsPid) - natsBefore : 0;
    const selfCpu = selfCpuMs() - selfBefore;
    return {
      completed,
      placed: total,
      // Calls end at the rate they end, from the first to the last: the offered rate, as long as
      // the processes keep up (then the call length stays flat).
      callsPerSecond: ((lengths.length - 1) * 1000) / (lastGone - firstGone),
      medianCallMs: median(lengths),
      ringflowCpuMsPerCall: ringflowCpu / completed,
      idleMsPerSecond,
      aboveIdleMsPerCall: (ringflowCpu - idleMsPerSecond * loadSeconds) / completed,
      natsCpuMsPerCall: natsCpu / completed,
      simulatorCpuMsPerCall: selfCpu / completed,
    };
  } finally {
    for (const p of procs) p.child.kill('SIGKILL');
    await Promise.all(
      procs.map((p) => new Promise((r) => (p.child.exitCode !== null ? r(0) : p.child.on('exit', r)))),
    );
    await outbound?.close();
    await balancer?.close();
    await wire?.close();
    sim.close();
    await nats?.stop();
  }
}

const modes: Mode[] = ARRIVALS.flatMap((arrival) => {
  const prefix = arrival === 'classic' ? '' : 'per-call ';
  return [
    { name: `${prefix}single`, arrival, processes: 1, cluster: false },
    ...WORKERS.map((n) => ({ name: `${prefix}cluster ${n}`, arrival, processes: n, cluster: true })),
  ];
});
const results = new Map<string, RunResult[]>(modes.map((m) => [m.name, []]));
for (let run = 0; run < RUNS; run++)
  for (let k = 0; k < modes.length; k++) {
    const mode = modes[(k + run) % modes.length]!;
    const r = await runOnce(mode);
    results.get(mode.name)!.push(r);
    process.stdout.write(
      `run ${run + 1} ${mode.name.padEnd(19)} completed ${r.completed}/${r.placed}, ${fmt(r.callsPerSecond, 1)} calls/s, call ${fmt(r.medianCallMs)} ms, CPU per call: ringflow ${fmt(r.ringflowCpuMsPerCall, 2)} ms (idle ${fmt(r.idleMsPerSecond, 1)} ms/s, above idle ${fmt(r.aboveIdleMsPerCall, 2)} ms), NATS ${fmt(r.natsCpuMsPerCall, 2)} ms, simulator ${fmt(r.simulatorCpuMsPerCall, 2)} ms\n`,
    );
  }

/** The median CPU per call of the single process that receives calls the same way as `mode`. */
const singleOf = (mode: Mode) =>
  median(
    results
      .get(mode.arrival === 'classic' ? 'single' : 'per-call single')!
      .map((r) => r.ringflowCpuMsPerCall),
  );
process.stdout.write(
  `\n${Math.round(RATE * SECONDS)} IVR calls per run (${RATE}/s for ${SECONDS} s), medians of ${RUNS} runs (min–max):\n\n`,
);
process.stdout.write(
  '| mode | processes | calls/s | median call ms | ringflow CPU ms/call | vs single | idle ms/s (all processes) | above idle ms/call | NATS CPU ms/call | simulator CPU ms/call |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n',
);
for (const mode of modes) {
  const rs = results.get(mode.name)!;
  const of = (pick: (r: RunResult) => number, digits: number) => spread(rs.map(pick), digits);
  const ringflowCpu = median(rs.map((r) => r.ringflowCpuMsPerCall));
  const cells = [
    mode.name,
    String(mode.processes),
    of((r) => r.callsPerSecond, 1),
    fmt(median(rs.map((r) => r.medianCallMs))),
    of((r) => r.ringflowCpuMsPerCall, 2),
    `${fmt(ringflowCpu / singleOf(mode), 2)}x`,
    of((r) => r.idleMsPerSecond, 1),
    of((r) => r.aboveIdleMsPerCall, 2),
    mode.cluster ? of((r) => r.natsCpuMsPerCall, 2) : '-',
    of((r) => r.simulatorCpuMsPerCall, 2),
  ];
  process.stdout.write(`| ${cells.join(' | ')} |\n`);
}
