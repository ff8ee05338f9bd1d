import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { systemClock } from '@ringflow/client';
import { JetStreamCallStore } from '@ringflow/cluster';
import type { CallRecord } from '@ringflow/runtime';
import { createSimulator, type SimulatorOptions, startWireServer } from '@ringflow/simulator';
import { EventSocketProxy } from '../runtime/EventSocketProxy.ts';
import { startNatsCluster, type TestNatsCluster } from './startNatsCluster.ts';
import { startNatsServer, type TestNatsServer } from './startNatsServer.ts';
import { startStallingProxy } from './stallingProxy.ts';
import { until as untilValue } from '@ringflow/testing';

/**
 * Real `ringflow run --server ... --cluster nats://...` processes (classic cluster mode, the
 * shipped IVR) on a simulator over the wire and a real `nats-server -js`, for the classic-cluster
 * tests. Each test file runs {@link runCleanups} after each test.
 */

const bin = fileURLToPath(new URL('../../packages/cli/bin/ringflow.js', import.meta.url));
const ivr = fileURLToPath(new URL('../../flows/ivr.yaml', import.meta.url));
/** The test dialplan: calls to 100 enter the application once (no retry). */
export const DIALPLAN = '[pbx]\nexten => 100,1,Stasis(ivr)\n same => n,Hangup()\n';
const users = [{ username: 'ringflow', password: 'secret' }];

const cleanups: (() => Promise<unknown> | unknown)[] = [];
/** Undoes what the last test started, newest first (use in `afterEach`). */
export async function runCleanups(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c();
}
/** Adds work to {@link runCleanups}. */
export function onCleanup(work: () => Promise<unknown> | unknown): void {
  cleanups.push(work);
}

/** Waits, every 25 ms, until `check` gives a value (bounded: throws after `timeoutMs`). */
export const until = <T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> => untilValue(what, check, { timeoutMs, everyMs: 25 });

export interface Proc {
  readonly child: ChildProcess;
  /** The runtime's JSON log lines (stdout). */
  readonly lines: Record<string, unknown>[];
  stderr: string;
  /** Its name in the cluster (the store's owner), from its first line on stderr. */
  owner: string;
  dead: boolean;
  readonly exit: Promise<number | null>;
}

function ringflow(args: string[]): Proc {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const p: Proc = {
    child,
    lines: [],
    stderr: '',
    owner: '',
    dead: false,
    exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
  child.stderr!.setEncoding('utf8').on('data', (t: string) => {
    p.stderr += t;
    const owner = /\(process ([^)]+)\)/.exec(p.stderr);
    if (owner) p.owner = owner[1]!;
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      p.lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {}
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return p;
}

/** The log lines of a process with this message. */
export const said = (p: Proc, msg: string) => p.lines.filter((l) => l.msg === msg);

export const HOLDING = 'holding the event connection: events go to the JetStream stream';
/** Whether a process has held the event connection (its log says so). */
export const holds = (p: Proc) => said(p, HOLDING).length > 0;

/** A record whose machine is in the IVR's main menu. */
export const inMenu = (r: CallRecord) =>
  JSON.stringify((r.machine as { value?: unknown }).value).includes('main-menu');

/** The calls that ended on each process (`call ended` log lines), by call id. */
export function endings(procs: readonly Proc[]): { call: string; outcome: unknown; by: Proc }[] {
  return procs.flatMap((p) =>
    said(p, 'call ended').map((l) => ({ call: String(l.call), outcome: l.outcome, by: p })),
  );
}

/**
 * A simulator over the wire, `nats-server -js` and `processes` cluster processes running the IVR.
 * `stallable`: the index of a process that reaches NATS through a stalling proxy (`proxy`).
 * `dialplan`: the simulator's dialplan (default {@link DIALPLAN}).
 */
export async function startClassicCluster(
  processes: number,
  options: {
    extraArgs?: readonly string[];
    stallable?: number;
    dialplan?: string;
    /** The simulator's sounds (longer prompts, say). */
    sounds?: SimulatorOptions['sounds'];
    /** The processes reach the server through an {@link EventSocketProxy} (`events`) that can cut event sockets. */
    eventProxy?: boolean;
    /**
     * Three clustered NATS nodes (`natsCluster`) instead of one server: every process is given all
     * three (`--cluster a,b,c --cluster-replicas 3`); `nats` and `proxy` are then not there.
     */
    natsCluster?: boolean;
  } = {},
) {
  const { extraArgs = [], stallable } = options;
  let nats: TestNatsServer | undefined;
  let natsCluster: TestNatsCluster | undefined;
  let proxy: Awaited<ReturnType<typeof startStallingProxy>> | undefined;
  if (options.natsCluster) {
    const started = await startNatsCluster();
    natsCluster = started;
    cleanups.push(() => started.stop());
  } else {
    const server = await startNatsServer();
    nats = server;
    cleanups.push(() => server.stop());
    const stalling = await startStallingProxy(server.port);
    proxy = stalling;
    cleanups.push(() => stalling.close());
  }
  const natsUrl = natsCluster?.urls ?? nats!.url;
  const sim = createSimulator({
    clock: systemClock,
    dialplan: { text: options.dialplan ?? DIALPLAN },
    ...(options.sounds ? { sounds: options.sounds } : {}),
  });
  cleanups.push(() => sim.close());
  const wire = await startWireServer(sim, { users, clock: systemClock });
  cleanups.push(() => wire.close());
  const events = options.eventProxy ? await EventSocketProxy.start(wire.port) : undefined;
  if (events) cleanups.push(() => events.close());
  const args = [
    'run',
    ivr,
    '--server',
    `http://127.0.0.1:${events?.port ?? wire.port}`,
    '--user',
    'ringflow',
    '--password',
    'secret',
    '--app',
    'ivr',
    '--cluster',
    natsUrl,
    ...(natsCluster ? ['--cluster-replicas', '3'] : []),
    '--input',
    'openingHours=Daily 24h',
    '--format',
    'json',
    ...extraArgs,
  ];
  const procs: Proc[] = [];
  /** Starts one more `ringflow run --server --cluster` process; resolves once its application runs. */
  const start = async (): Promise<Proc> => {
    // The stallable process reaches NATS through the proxy and serves its probes (--http).
    const p = ringflow(
      procs.length === stallable
        ? [...args.map((a) => (a === natsUrl && proxy ? proxy.url : a)), '--http', '127.0.0.1:0']
        : args,
    );
    procs.push(p);
    await until(`process ${procs.length} to start`, () => {
      if (p.child.exitCode !== null) throw new Error(`exited ${p.child.exitCode}: ${p.stderr}`);
      return said(p, 'application started').length > 0;
    });
    return p;
  };
  for (let i = 0; i < processes; i++) await start();
  await until('one process to hold the event connection', () => procs.some(holds));
  // Every process sees all the workers (the holder assigns calls among those it listed).
  await until('every process to list every worker', () =>
    procs.every((p) => {
      const changes = said(p, 'cluster workers changed');
      return (changes.at(-1)?.workers as unknown[] | undefined)?.length === processes;
    }),
  );
  const observer = await JetStreamCallStore.connect(natsUrl.split(','), {
    owner: 'observer',
    ...(natsCluster ? { replicas: 3 } : {}),
  });
  cleanups.push(() => observer.close());
  const voicemails = new Map<string, number>();
  const prompts = new Map<string, number>();
  /** Calls (channel ids) that entered the application, with how many times. */
  const entered = new Map<string, number>();
  sim.driver.onEvent((e) => {
    const channel = String((e.channel as { id?: string } | undefined)?.id);
    if (e.type === 'StasisStart') entered.set(channel, (entered.get(channel) ?? 0) + 1);
    if (e.type === 'ChannelUserevent' && e.eventname === 'VoicemailLeft')
      voicemails.set(channel, (voicemails.get(channel) ?? 0) + 1);
    const playback = e.playback as { media_uri?: string; target_uri?: string } | undefined;
    if (e.type === 'PlaybackStarted' && playback?.target_uri?.startsWith('channel:')) {
      const key = `${playback.target_uri.slice('channel:'.length)} ${playback.media_uri}`;
      prompts.set(key, (prompts.get(key) ?? 0) + 1);
    }
  });
  /** How many times a prompt was started on a call's channel. */
  const promptsHeard = (call: string, media: string) => prompts.get(`${call} ${media}`) ?? 0;
  return {
    // Single-server mode's (without natsCluster): typed as always there for the tests that use them.
    nats: nats as TestNatsServer,
    proxy: proxy as Awaited<ReturnType<typeof startStallingProxy>>,
    natsCluster,
    sim,
    wire,
    events,
    procs,
    observer,
    voicemails,
    promptsHeard,
    entered,
    start,
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Has the callers choose voicemail (3) whenever they are in the main menu by the store (a key
 * pressed while the event connection changes hands is lost, as on a real server with nobody
 * connected: a caller who still hears the menu presses it again, as people do, after 3 s). Runs
 * until the returned stop is called.
 */
export function callersChooseVoicemail(
  calls: () => readonly string[],
  inMainMenu: () => Promise<ReadonlySet<string>>,
  press: (call: string) => void,
): () => void {
  let stopped = false;
  const pressedAt = new Map<string, number>();
  void (async () => {
    while (!stopped) {
      const waiting = await inMainMenu().catch(() => new Set<string>());
      for (const call of calls())
        if (waiting.has(call) && Date.now() - (pressedAt.get(call) ?? 0) > 3_000) {
          pressedAt.set(call, Date.now());
          press(call);
        }
      await sleep(200);
    }
  })();
  return () => {
    stopped = true;
  };
}

/** What each call that did not end as expected went through, from the processes' logs. */
export function tellCalls(procs: readonly Proc[], calls: readonly string[], since: number): void {
  for (const call of calls)
    console.log(
      'call',
      call,
      JSON.stringify(
        procs.flatMap((p) =>
          p.lines
            .filter((l) => l.call === call && (l.level as number) >= 30)
            .map((l) => [p.owner, (l.time as number) - since, l.msg, l.outcome ?? l.state ?? '']),
        ),
      ).slice(0, 2_000),
    );
}
