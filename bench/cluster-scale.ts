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
 * `--seconds` (a list of rates runs each mode at each rate).
 *
 * `--cpu-quota 0.25` gives each ringflow process a quarter of a core (a control group of its own,
 * see process/CpuQuota.ts; needs root): N capped processes stand for N small machines, so the
 * processes, not this machine's cores, are the limit, and a list of rates finds each mode's
 * capacity (the highest rate whose calls all complete at their unloaded length: the shortest
 * median call of the bench, so the lowest rate should be light).
 *
 * `--run-args="ARGS"` gives every `ringflow run` more arguments (space separated; `=` since they start with a dash).
 * `--log-dir DIR` keeps every ringflow process's log lines (`<mode>-<rate>-p<N>.jsonl`) and, for
 * each call still up when a run gives up waiting, the events the server sent about it
 * (`<mode>-<rate>-left.jsonl`): what to read when calls are left behind.
 * `--cpu-prof DIR` writes a V8 CPU profile of each ringflow process into DIR (they are stopped
 * with SIGTERM instead of SIGKILL, so that they write it).
 *
 * `--idle SECONDS` places no call: each mode's processes are only watched idle for that long
 * (once the cluster has settled), and their CPU per second is printed, process by process (the
 * holder first in classic mode). `--ringflow PATH` runs another checkout's
 * `packages/cli/bin/ringflow.js` (built) instead of this one's: alternate runs of two checkouts
 * compare them side by side.
 *
 *   npx tsx bench/cluster-scale.ts [--rate 20 | --rate 4,8,12] [--seconds 20] [--runs 3] [--workers 1,2,4] [--arrival classic,per-call] [--cpu-quota 0.25] [--cpu-prof DIR] [--without-single] [--idle SECONDS] [--ringflow PATH] [--log-dir DIR] [--run-args="ARGS"]
 *
 * Reports per mode: the calls that ended per second (from the first call gone to the last; the
 * offered rate as long as the processes keep up), the median call length (it grows when they fall
 * behind), and CPU per completed call of the ringflow processes together, of NATS, and of the
 * simulator (this process), from /proc (user + system). The ringflow processes are first watched
 * idle for 5 s: their idle CPU per second, and their CPU per call above what they would have spent
 * idle over the load's time, tell a per-process cost from a per-call one. Each run line is followed
 * by the warnings and errors the processes logged, counted by message.
 * Not part of `npm test`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { systemClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { dialPerCall } from '../test/cluster/dialPerCall.ts';
import { type RoundRobin, startRoundRobin } from '../test/cluster/roundRobin.ts';
import { startNatsServer } from '../test/cluster/startNatsServer.ts';
import { fmt, median, spread } from './apps/stats.ts';
import { CpuQuota } from './process/CpuQuota.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '20' },
    runs: { type: 'string', default: '3' },
    workers: { type: 'string', default: '1,2,4' },
    arrival: { type: 'string', default: 'classic,per-call' },
    'cpu-quota': { type: 'string' },
    'cpu-prof': { type: 'string' },
    'without-single': { type: 'boolean', default: false },
    idle: { type: 'string' },
    ringflow: { type: 'string' },
    'log-dir': { type: 'string' },
    'run-args': { type: 'string' },
  },
});
const RATES = values.rate.split(',').map(Number);
const SECONDS = Number(values.seconds);
const RUNS = Number(values.runs);
const WORKERS = values.workers.split(',').map(Number);
const ARRIVALS = values.arrival.split(',') as Arrival[];
const CPU_QUOTA = values['cpu-quota'] === undefined ? undefined : Number(values['cpu-quota']);
const CPU_PROF = values['cpu-prof'];
const LOG_DIR = values['log-dir'];
/** More arguments for every `ringflow run` (space separated): `--run-args="--cluster-holder-takeover 2s"` (with `=`: the value starts with a dash). */
const RUN_ARGS = values['run-args']?.split(' ').filter((a) => a !== '') ?? [];
const IDLE_ONLY_MS = values.idle === undefined ? undefined : Number(values.idle) * 1000;
if (
  (IDLE_ONLY_MS !== undefined && !(IDLE_ONLY_MS > 0)) ||
  RATES.some((rate) => !(rate > 0)) ||
  (CPU_QUOTA !== undefined && !(CPU_QUOTA > 0)) ||
  !(SECONDS > 0) ||
  !Number.isInteger(RUNS) ||
  RUNS < 1 ||
  WORKERS.some((n) => !Number.isInteger(n) || n < 1) ||
  ARRIVALS.some((a) => a !== 'classic' && a !== 'per-call')
) {
  process.stderr.write(
    'usage: npx tsx bench/cluster-scale.ts [--rate calls/s > 0, or a list: 4,8,12] [--seconds > 0] [--runs N > 0] [--workers 1,2,4] [--arrival classic,per-call] [--cpu-quota cores > 0] [--idle seconds > 0] [--ringflow path/to/bin/ringflow.js]\n',
  );
  process.exit(2);
}

const bin = values.ringflow ?? fileURLToPath(new URL('../packages/cli/bin/ringflow.js', import.meta.url));
const ivr = fileURLToPath(new URL('../flows/ivr.yaml', import.meta.url));
const DIALPLAN = '[pbx]\nexten => 100,1,Stasis(ivr)\n same => n,Hangup()\n';
const MAIN_MENU_PROMPT = 'sound:demo-instruct';
/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;
/** How long the processes are watched idle, before the calls, for their idle CPU (with `--idle`: only that). */
const IDLE_MS = IDLE_ONLY_MS ?? 5_000;
/** The last call must be gone this long after the last one was placed, or the run fails. */
const DRAIN_LIMIT_MS = 120_000;
/** A rate carries the load when every call completes and its median call is at most this much longer than at the lowest rate. */
const SLOWER_AT_CAPACITY = 1.1;

/** CPU time (user + system) a process has used, in milliseconds. */
function cpuMsOf(pid: number): number {
  // Fields after the command name (which may hold spaces) start at ") ".
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
}

/** The machine's load averages (1, 5 and 15 min), as `uptime` prints them: the machine is shared. */
function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

function selfCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

interface Proc {
  readonly child: ChildProcess;
  readonly quota: CpuQuota | undefined;
  readonly messages: string[];
  /** How many times each warning or error was logged (pino level 40 and above), by message. */
  readonly warnings: Map<string, number>;
  stderr: string;
  /** With --listen: the port it listens on for the server's connections. */
  listenPort?: number;
}

let groups = 0;
/** --cpu-prof DIR: each ringflow process writes a V8 CPU profile there when it exits (open it in Chrome's DevTools). */
const nodeFlags = CPU_PROF === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`];

/** A `ringflow` process; with `--cpu-quota`, in a control group of its own from its first instruction. */
function ringflow(args: readonly string[], logFile?: string): Proc {
  const quota =
    CPU_QUOTA === undefined
      ? undefined
      : CpuQuota.create(`ringflow-bench-${process.pid}-${groups++}`, CPU_QUOTA);
  const child = quota
    ? spawn(
        'sh',
        ['-c', `${quota.enterCommand()} && exec "$0" "$@"`, process.execPath, ...nodeFlags, bin, ...args],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
    : spawn(process.execPath, [...nodeFlags, bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const p: Proc = { child, quota, messages: [], warnings: new Map(), stderr: '' };
  child.stderr!.setEncoding('utf8').on('data', (t: string) => {
    p.stderr += t;
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (logFile !== undefined) appendFileSync(logFile, `${line}\n`);
    try {
      const { msg, url, level, why } = JSON.parse(line) as {
        msg?: unknown;
        url?: unknown;
        level?: unknown;
        why?: unknown;
      };
      if (msg === 'listening for servers' && typeof url === 'string')
        p.listenPort = Number(new URL(url).port);
      if (typeof msg === 'string' && typeof level === 'number' && level >= 40) {
        // A lost lease says why (how long no renewal was accepted): kept with the message.
        const key = typeof why === 'string' ? `${msg} (why: ${why})` : msg;
        p.warnings.set(key, (p.warnings.get(key) ?? 0) + 1);
      }
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
  readonly rate: number;
  readonly completed: number;
  readonly placed: number;
  readonly callsPerSecond: number;
  readonly medianCallMs: number;
  readonly ringflowCpuMsPerCall: number;
  /** The ringflow processes' CPU with no call, together, per second of wall time. */
  readonly idleMsPerSecond: number;
  /** The same per process (in classic cluster mode the event connection holder first). */
  readonly idleByProcess: readonly number[];
  /** Their CPU per call less what they would have spent idle over the same time. */
  readonly aboveIdleMsPerCall: number;
  readonly natsCpuMsPerCall: number;
  readonly simulatorCpuMsPerCall: number;
  /** With --cpu-quota: how long the ringflow processes were held back by their quota, per second of load. */
  readonly throttledMsPerSecond: number;
  /** The warnings and errors the ringflow processes logged, by message, all processes together. */
  readonly warnings: ReadonlyMap<string, number>;
}

async function runOnce(mode: Mode, rate: number): Promise<RunResult> {
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
      ...RUN_ARGS,
    ];
    const logName = `${mode.name}-${rate}`.replaceAll(' ', '-');
    if (LOG_DIR !== undefined) mkdirSync(LOG_DIR, { recursive: true });
    for (let i = 0; i < mode.processes; i++) {
      const logFile = LOG_DIR === undefined ? undefined : join(LOG_DIR, `${logName}-p${i + 1}.jsonl`);
      if (logFile !== undefined) writeFileSync(logFile, '');
      const p = ringflow(args, logFile);
      procs.push(p);
      await until(
        `process ${i + 1} to start`,
        () => {
          if (p.child.exitCode !== null) throw new Error(`ringflow exited ${p.child.exitCode}: ${p.stderr}`);
          return (
            p.messages.includes('application started') && (wire !== undefined || p.listenPort !== undefined)
          );
        },
        CPU_QUOTA === undefined ? 30_000 : 120_000,
      );
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
    /** With --log-dir: every event of each placed call's channel, to tell why a call was left behind. */
    const eventsOf = new Map<string, unknown[]>();
    sim.driver.onEvent((e) => {
      const channelId = (e.channel as { id?: string } | undefined)?.id;
      if (LOG_DIR !== undefined) {
        // A playback's or recording's events name the channel in their target.
        const target = ((e.playback ?? e.recording) as { target_uri?: string } | undefined)?.target_uri;
        const about =
          channelId ?? (target?.startsWith('channel:') ? target.slice('channel:'.length) : undefined);
        if (about !== undefined) eventsOf.get(about)?.push(e);
      }
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
    const idleStart = Date.now();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleWall = Date.now() - idleStart;
    const idleByPid = pids.map((pid, i) => ((cpuMsOf(pid) - idleBefore[i]!) * 1000) / idleWall);
    const idleMsPerSecond = idleByPid.reduce((sum, ms) => sum + ms, 0);
    const holds = (p: Proc) =>
      p.messages.includes('holding the event connection: events go to the JetStream stream') ? 0 : 1;
    const idleByProcess = procs
      .map((p, i) => ({ p, ms: idleByPid[i]! }))
      .sort((a, b) => holds(a.p) - holds(b.p))
      .map(({ ms }) => ms);
    if (IDLE_ONLY_MS !== undefined)
      return {
        rate,
        completed: 0,
        placed: 0,
        callsPerSecond: Number.NaN,
        medianCallMs: Number.NaN,
        ringflowCpuMsPerCall: Number.NaN,
        idleMsPerSecond,
        idleByProcess,
        aboveIdleMsPerCall: Number.NaN,
        natsCpuMsPerCall: Number.NaN,
        simulatorCpuMsPerCall: Number.NaN,
        throttledMsPerSecond: Number.NaN,
        warnings: countWarnings(procs),
      };
    const cpuBefore = pids.map(cpuMsOf);
    const natsBefore = natsPid ? cpuMsOf(natsPid) : 0;
    const selfBefore = selfCpuMs();
    const throttled = () => procs.reduce((sum, p) => sum + (p.quota?.throttledMs() ?? 0), 0);
    const throttledBefore = throttled();
    const start = Date.now();
    const total = Math.round(rate * SECONDS);
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      const id = sim.driver.placeCall({ context: 'pbx', to: '100' });
      placedAt.set(id, Date.now());
      if (LOG_DIR !== undefined) eventsOf.set(id, []);
    }
    // Past its capacity a mode may leave calls behind: they count as not completed, not as an error.
    await until('every call gone', () => lengths.length >= total, DRAIN_LIMIT_MS).catch((error: unknown) => {
      process.stderr.write(`${mode.name} at ${rate}/s: ${(error as Error).message}\n`);
      if (LOG_DIR === undefined) return;
      const left = [...placedAt.keys()].filter(
        (id) => !eventsOf.get(id)?.some((e) => (e as { type?: string }).type === 'ChannelDestroyed'),
      );
      const file = join(LOG_DIR, `${logName}-left.jsonl`);
      writeFileSync(
        file,
        left.map((id) => `${JSON.stringify({ channel: id, events: eventsOf.get(id) })}\n`).join(''),
      );
      process.stderr.write(`    ${left.length} calls left behind, their events in ${file}\n`);
    });
    const ringflowCpu = pids.map(cpuMsOf).reduce((sum, ms, i) => sum + ms - cpuBefore[i]!, 0);
    const loadSeconds = (Date.now() - start) / 1000;
    const natsCpu = natsPid ? cpuMsOf(natsPid) - natsBefore : 0;
    const selfCpu = selfCpuMs() - selfBefore;
    return {
      rate,
      completed,
      placed: total,
      // Calls end at the rate they end, from the first to the last: the offered rate, as long as
      // the processes keep up (then the call length stays flat).
      callsPerSecond: ((lengths.length - 1) * 1000) / (lastGone - firstGone),
      medianCallMs: median(lengths),
      ringflowCpuMsPerCall: ringflowCpu / completed,
      idleMsPerSecond,
      idleByProcess,
      aboveIdleMsPerCall: (ringflowCpu - idleMsPerSecond * loadSeconds) / completed,
      natsCpuMsPerCall: natsCpu / completed,
      simulatorCpuMsPerCall: selfCpu / completed,
      throttledMsPerSecond: (throttled() - throttledBefore) / loadSeconds,
      warnings: countWarnings(procs),
    };
  } finally {
    // With --cpu-prof the processes must exit by themselves to write their profiles.
    for (const p of procs) p.child.kill(CPU_PROF === undefined ? 'SIGKILL' : 'SIGTERM');
    await Promise.all(
      procs.map((p) => new Promise((r) => (p.child.exitCode !== null ? r(0) : p.child.on('exit', r)))),
    );
    for (const p of procs) p.quota?.remove();
    await outbound?.close();
    await balancer?.close();
    await wire?.close();
    sim.close();
    await nats?.stop();
  }
}

function countWarnings(procs: readonly Proc[]): Map<string, number> {
  const all = new Map<string, number>();
  for (const p of procs) for (const [msg, n] of p.warnings) all.set(msg, (all.get(msg) ?? 0) + n);
  return all;
}

const modes: Mode[] = ARRIVALS.flatMap((arrival) => {
  const prefix = arrival === 'classic' ? '' : 'per-call ';
  return [
    ...(values['without-single'] ? [] : [{ name: `${prefix}single`, arrival, processes: 1, cluster: false }]),
    ...WORKERS.map((n) => ({ name: `${prefix}cluster ${n}`, arrival, processes: n, cluster: true })),
  ];
});
/** A mode at one offered rate: the key of its results. */
const keyOf = (mode: Mode, rate: number) => `${mode.name} @ ${rate}/s`;
const ascending = [...RATES].sort((a, b) => a - b);
const results = new Map<string, RunResult[]>(
  modes.flatMap((mode) => ascending.map((rate) => [keyOf(mode, rate), []] as [string, RunResult[]])),
);
/** Whether a run carried its offered rate: every call completed, at (nearly) its unloaded length. */
const carried = (r: RunResult, unloadedCallMs: number) =>
  r.completed === r.placed && r.medianCallMs <= unloadedCallMs * SLOWER_AT_CAPACITY;
if (IDLE_ONLY_MS !== undefined) {
  // Idle only: each mode once per run (the order rotates), no call placed.
  const idle = new Map<string, RunResult[]>(modes.map((mode) => [mode.name, []]));
  for (let run = 0; run < RUNS; run++)
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[(k + run) % modes.length]!;
      const loadBefore = loadAverage();
      const r = await runOnce(mode, 0);
      idle.get(mode.name)!.push(r);
      process.stdout.write(
        `run ${run + 1} ${mode.name.padEnd(20)} idle ${fmt(r.idleMsPerSecond, 1)} ms/s over ${IDLE_MS / 1000} s (by process: ${r.idleByProcess.map((ms) => fmt(ms, 1)).join(', ')}), machine load ${loadBefore} before, ${loadAverage()} after\n${[...r.warnings].map(([msg, n]) => `    logged ${n}x: ${msg}\n`).join('')}`,
      );
    }
  process.stdout.write(
    `\nIdle CPU of the ringflow processes (no call), ms per second over ${IDLE_MS / 1000} s, medians of ${RUNS} runs (min–max):\n\n| mode | processes | all processes | by process (classic: the holder first) |\n|---|---:|---:|---|\n`,
  );
  for (const mode of modes) {
    const rs = idle.get(mode.name)!;
    const byProcess = rs[0]!.idleByProcess.map((_, i) =>
      spread(
        rs.map((r) => r.idleByProcess[i] ?? 0),
        1,
      ),
    );
    process.stdout.write(
      `| ${mode.name} | ${mode.processes} | ${spread(
        rs.map((r) => r.idleMsPerSecond),
        1,
      )} | ${byProcess.join(', ')} |\n`,
    );
  }
  process.exit(0);
}
for (let run = 0; run < RUNS; run++) {
  // Rates from the lowest; a mode that could not carry a rate is not tried at higher ones.
  // The flow's call length with no load: the shortest median call seen (the lowest rate should be light).
  let unloaded = Number.POSITIVE_INFINITY;
  const overloaded = new Set<string>();
  for (const rate of ascending)
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[(k + run) % modes.length]!;
      if (overloaded.has(mode.name)) continue;
      const loadBefore = loadAverage();
      const r = await runOnce(mode, rate);
      results.get(keyOf(mode, rate))!.push(r);
      unloaded = Math.min(unloaded, r.medianCallMs);
      if (!carried(r, unloaded)) overloaded.add(mode.name);
      process.stdout.write(
        `run ${run + 1} ${keyOf(mode, rate).padEnd(28)} completed ${r.completed}/${r.placed}, ${fmt(r.callsPerSecond, 1)} calls/s, call ${fmt(r.medianCallMs)} ms, CPU per call: ringflow ${fmt(r.ringflowCpuMsPerCall, 2)} ms (idle ${fmt(r.idleMsPerSecond, 1)} ms/s, above idle ${fmt(r.aboveIdleMsPerCall, 2)} ms), NATS ${fmt(r.natsCpuMsPerCall, 2)} ms, simulator ${fmt(r.simulatorCpuMsPerCall, 2)} ms${CPU_QUOTA === undefined ? '' : `, throttled ${fmt(r.throttledMsPerSecond, 0)} ms/s`}, machine load ${loadBefore} before, ${loadAverage()} after\n${[...r.warnings].map(([msg, n]) => `    logged ${n}x: ${msg}\n`).join('')}`,
      );
    }
}

/** The median CPU per call of the single process that receives calls the same way as `mode`, at the same rate. */
const singleOf = (mode: Mode, rate: number) =>
  median(
    (
      results.get(
        keyOf({ ...mode, name: mode.arrival === 'classic' ? 'single' : 'per-call single' }, rate),
      ) ?? []
    ).map((r) => r.ringflowCpuMsPerCall),
  );
process.stdout.write(
  `\nIVR calls at ${RATES.join(', ')} calls/s for ${SECONDS} s${CPU_QUOTA === undefined ? '' : `, each ringflow process limited to ${CPU_QUOTA} of a core`}, medians of ${RUNS} runs (min–max):\n\n`,
);
process.stdout.write(
  `| mode | processes | offered calls/s | completed | calls/s | median call ms | ringflow CPU ms/call | vs single | idle ms/s (all processes) | above idle ms/call | NATS CPU ms/call | simulator CPU ms/call |${CPU_QUOTA === undefined ? '' : ' throttled ms/s |'}\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${CPU_QUOTA === undefined ? '' : '---:|'}\n`,
);
for (const mode of modes)
  for (const rate of ascending) {
    const rs = results.get(keyOf(mode, rate))!;
    if (rs.length === 0) continue; // not tried: the mode could not carry a lower rate
    const of = (pick: (r: RunResult) => number, digits: number) => spread(rs.map(pick), digits);
    const ringflowCpu = median(rs.map((r) => r.ringflowCpuMsPerCall));
    const single = singleOf(mode, rate);
    const cells = [
      mode.name,
      String(mode.processes),
      String(rate),
      `${fmt(median(rs.map((r) => r.completed)))}/${rs[0]!.placed}`,
      of((r) => r.callsPerSecond, 1),
      fmt(median(rs.map((r) => r.medianCallMs))),
      of((r) => r.ringflowCpuMsPerCall, 2),
      // '-' where the single process was not tried at this rate (it could not carry a lower one).
      Number.isNaN(single) ? '-' : `${fmt(ringflowCpu / single, 2)}x`,
      of((r) => r.idleMsPerSecond, 1),
      of((r) => r.aboveIdleMsPerCall, 2),
      mode.cluster ? of((r) => r.natsCpuMsPerCall, 2) : '-',
      of((r) => r.simulatorCpuMsPerCall, 2),
      ...(CPU_QUOTA === undefined ? [] : [of((r) => r.throttledMsPerSecond, 0)]),
    ];
    process.stdout.write(`| ${cells.join(' | ')} |\n`);
  }

if (RATES.length > 1) {
  // Capacity: the highest rate whose runs all completed every call at (nearly) the flow's call
  // length with no load (the shortest median call of the whole bench).
  const unloaded = Math.min(...[...results.values()].flat().map((r) => r.medianCallMs));
  process.stdout.write(
    `\nCapacity (highest offered rate with every call completed and the median call at most ${SLOWER_AT_CAPACITY}x ${fmt(unloaded)} ms, the shortest median call seen):\n\n| mode | processes | capacity calls/s |\n|---|---:|---:|\n`,
  );
  for (const mode of modes) {
    let capacity: number | undefined;
    for (const rate of ascending) {
      const rs = results.get(keyOf(mode, rate))!;
      // Every run must have tried and carried this rate.
      if (rs.length < RUNS || !rs.every((r) => carried(r, unloaded))) break;
      capacity = rate;
    }
    const top = ascending.at(-1)!;
    const cell =
      capacity === undefined
        ? `below ${ascending[0]}`
        : capacity === top
          ? `${top} or more`
          : String(capacity);
    process.stdout.write(`| ${mode.name} | ${mode.processes} | ${cell} |\n`);
  }
}
