/**
 * What cluster mode's call records cost the application: the shipped IVR (flows/ivr.yaml, open
 * every day; each caller presses 3 at 9 s and leaves a voicemail, which the flow ends) on the
 * in-process simulator in virtual time, run three ways side by side in one process: no store,
 * `MemoryCallStore` (the records written as JSON, no network), and `JetStreamCallStore` on a real
 * `nats-server -js` (Debian's package) on 127.0.0.1. Each run places `--calls` callers 20 ms apart.
 *
 *   npx tsx bench/cluster-store.ts [--calls 500] [--runs 3]
 *
 * Reports, per store: the process CPU per call (application and simulator: the simulator's share
 * is the same in the three, so the differences are the records' cost), the record writes per call,
 * the bytes written per call, and the CPU per write over no store. NATS's own CPU is its process's
 * (not counted here); the store's wall time is hidden by virtual time, which waits for every write
 * at each step. Medians of `--runs`, each run the three stores in turn (the order rotates).
 * Not part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { VirtualClock } from '@ringflow/client';
import { JetStreamCallStore } from '@ringflow/cluster';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import {
  type CallRecord,
  type CallStore,
  createApplication,
  inProcessEventTransport,
  inProcessRestTransport,
  MemoryCallStore,
} from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { pino } from 'pino';
import { startNatsServer } from '../test/cluster/startNatsServer.ts';
import { fmt, median } from './apps/stats.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '500' },
    runs: { type: 'string', default: '3' },
  },
});
const CALLS = Number(values.calls);
const RUNS = Number(values.runs);
if (!Number.isInteger(CALLS) || CALLS < 1 || !Number.isInteger(RUNS) || RUNS < 1) {
  process.stderr.write('usage: npx tsx bench/cluster-store.ts [--calls N>0] [--runs N>0]\n');
  process.exit(2);
}

type StoreKind = 'none' | 'memory' | 'jetstream';
const KINDS: readonly StoreKind[] = ['none', 'memory', 'jetstream'];

/**
 * A store that counts what goes through it. Sizes are taken from every 16th record (and scaled),
 * so that measuring them adds little to the CPU measured.
 */
class CountingStore implements CallStore {
  writes = 0;
  private sampledBytes = 0;
  private sampled = 0;
  constructor(private readonly inner: CallStore) {}
  get bytes(): number {
    return this.sampled === 0 ? 0 : (this.sampledBytes / this.sampled) * this.writes;
  }
  save(record: CallRecord) {
    if (this.writes++ % 16 === 0) {
      this.sampled++;
      this.sampledBytes += Buffer.byteLength(JSON.stringify(record));
    }
    return this.inner.save(record);
  }
  remove(callId: string) {
    return this.inner.remove(callId);
  }
  list() {
    return this.inner.list();
  }
}

const flow = await loadFlowFile(new URL('../flows/ivr.yaml', import.meta.url).pathname);
const machine = createFlowCallMachine(flow, { inputs: { openingHours: 'Daily 24h' } });
const nats = await startNatsServer();

/** Lets real I/O (NATS replies) happen between steps of virtual time. */
const ioTurn = () => new Promise((resolve) => setImmediate(resolve));

async function runOnce(kind: StoreKind, run: number) {
  const clock = new VirtualClock();
  const simulator = createSimulator({ clock });
  let jetstream: JetStreamCallStore | undefined;
  let counting: CountingStore | undefined;
  if (kind === 'memory') counting = new CountingStore(new MemoryCallStore());
  if (kind === 'jetstream') {
    jetstream = await JetStreamCallStore.connect(nats.url, { bucket: `bench-${run}`, owner: 'bench' });
    counting = new CountingStore(jetstream);
  }
  const app = createApplication({
    servers: [
      {
        name: 'pbx',
        url: 'http://pbx/ari',
        username: 'ringflow',
        password: 'secret',
        restTransport: inProcessRestTransport(simulator),
        eventTransport: inProcessEventTransport(simulator),
        eventStream: { pingIntervalMs: 0, random: () => 0.5 },
      },
    ],
    apps: ['ringflow-demo'],
    call: machine,
    clock,
    logger: pino({ level: 'silent' }),
    ...(counting ? { store: counting } : {}),
  });
  await app.start();
  let ended = 0;
  const outcomes: Record<string, number> = {};
  app.callEnded$.subscribe((c) => {
    ended++;
    outcomes[c.outcome] = (outcomes[c.outcome] ?? 0) + 1;
  });
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const t0 = clock.now();
  const plan: { at: number; act: () => void }[] = [];
  for (let i = 0; i < CALLS; i++) {
    const id = `caller-${i}`;
    const start = i * 20;
    plan.push({
      at: start,
      act: () =>
        simulator.driver.placeCall({ channelId: id, from: '5551234', to: '100', endpoint: 'PJSIP/caller' }),
    });
    plan.push({ at: start + 9000, act: () => simulator.driver.pressDigits(id, '3') });
    plan.push({
      at: start + 30_000,
      act: () => {
        try {
          simulator.driver.hangup(id);
        } catch {
          // The flow ended the call first.
        }
      },
    });
  }
  plan.sort((a, b) => a.at - b.at);
  const STEP = 50;
  let next = 0;
  for (let t = 0; ended < CALLS && t < CALLS * 20 + 120_000; t += STEP) {
    while (next < plan.length && plan[next]!.at <= t) plan[next++]!.act();
    await clock.advance(t0 + t - clock.now());
    await ioTurn();
  }
  // Every record's removal reaches NATS before the figures are read.
  for (let i = 0; i < 20; i++) await ioTurn();
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - wall;
  await app.stop();
  await jetstream?.close();
  return {
    kind,
    cpuMsPerCall: (used.user + used.system) / 1000 / CALLS,
    writesPerCall: (counting?.writes ?? 0) / CALLS,
    kibPerCall: (counting?.bytes ?? 0) / 1024 / CALLS,
    wallMs,
    outcomes,
  };
}

const results: Record<StoreKind, Awaited<ReturnType<typeof runOnce>>[]> = {
  none: [],
  memory: [],
  jetstream: [],
};
try {
  // A warm-up run of each, not counted (JIT, NATS stream creation).
  for (const kind of KINDS) await runOnce(kind, 1000 + KINDS.indexOf(kind));
  for (let run = 0; run < RUNS; run++)
    for (let k = 0; k < KINDS.length; k++) {
      const kind = KINDS[(k + run) % KINDS.length]!;
      const r = await runOnce(kind, run);
      results[kind].push(r);
      process.stdout.write(
        `run ${run + 1} ${kind.padEnd(9)} cpu ${fmt(r.cpuMsPerCall, 2)} ms/call, ${fmt(r.writesPerCall, 1)} writes/call, ${fmt(r.kibPerCall, 1)} KiB/call, ended ${JSON.stringify(r.outcomes)}, ${Math.round(r.wallMs)} ms\n`,
      );
    }
} finally {
  await nats.stop();
}

const none = median(results.none.map((r) => r.cpuMsPerCall));
process.stdout.write(
  `\n${CALLS} IVR calls per run, medians of ${RUNS} runs (application and in-process simulator CPU):\n\n`,
);
process.stdout.write(
  '| store | CPU ms per call | vs no store | writes per call | KiB written per call | CPU µs per write (over no store) |\n|---|---:|---:|---:|---:|---:|\n',
);
for (const kind of KINDS) {
  const cpu = median(results[kind].map((r) => r.cpuMsPerCall));
  const writes = median(results[kind].map((r) => r.writesPerCall));
  const kib = median(results[kind].map((r) => r.kibPerCall));
  const perWrite = writes > 0 ? `${fmt(((cpu - none) * 1000) / writes)}` : '-';
  process.stdout.write(
    `| ${kind} | ${fmt(cpu, 2)} | ${fmt(cpu / none, 2)}x | ${fmt(writes, 1)} | ${fmt(kib, 1)} | ${perWrite} |\n`,
  );
}
