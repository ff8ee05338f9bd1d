import { fileURLToPath } from 'node:url';
import { type EventTransport, eventResources, type StreamEvent, systemClock } from '@ringflow/client';
import { ClassicCluster, JetStreamCallStore } from '@ringflow/cluster';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import { type Application, type CallEnded, createApplication } from '@ringflow/runtime';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { until as untilValue } from '@ringflow/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startNatsServer } from './startNatsServer.ts';

/**
 * Classic cluster mode with per-worker subjects (issue 32 point 3): the holder publishes each
 * event for the worker that drives its call, so a worker's feed delivers none of another worker's
 * calls' events (before, every worker read every event and dropped the others'). Events about
 * bridges go to every worker: a conference room with callers on two workers works as on one. A
 * worker's calls taken over by another go on there: the keys pressed while nobody drove them are
 * replayed, and their events after the takeover reach the new worker.
 * Two or three workers in this process (each its own NATS connection, store owner, cluster roles
 * and application, the shipped conference flow), a simulator over the wire, a real nats-server.
 */

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const until = <T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>) =>
  untilValue(what, check, { timeoutMs: 40_000, everyMs: 25 });

const flow = await loadFlowFile(fileURLToPath(new URL('../../flows/conference.yaml', import.meta.url)));
const machine = createFlowCallMachine(flow, {
  inputs: { room: 'r1', moderatorPin: '1234', memberPin: '5678' },
});
const ROOM = '/bridges/ringflow-r1';

/** The events a worker's feed handed its application, as they came. */
function counting(inner: EventTransport, seen: StreamEvent[]): EventTransport {
  return {
    connect: (request, handlers) =>
      inner.connect(request, {
        open: () => handlers.open(),
        message: (frame) => {
          seen.push((typeof frame === 'string' ? JSON.parse(frame) : frame) as StreamEvent);
          handlers.message(frame);
        },
        pong: () => handlers.pong(),
        rejected: (status, body) => handlers.rejected(status, body),
        error: (error) => handlers.error(error),
        closed: (code, reason) => handlers.closed(code, reason),
      }),
  };
}

async function environment() {
  const nats = await startNatsServer();
  cleanups.push(() => nats.stop());
  const sim = createSimulator({
    clock: systemClock,
    dialplan: { text: '[pbx]\nexten => 100,1,Stasis(ivr)\n same => n,Hangup()\n' },
  });
  cleanups.push(() => sim.close());
  const wire = await startWireServer(sim, {
    users: [{ username: 'ringflow', password: 'secret' }],
    clock: systemClock,
  });
  cleanups.push(() => wire.close());
  const ended: CallEnded[] = [];
  const worker = async (name: string) => {
    const store = await JetStreamCallStore.connect(nats.url, { owner: name });
    const logger = pino({ level: 'error', base: { worker: name } });
    const cluster = await ClassicCluster.start({
      connection: store.connection,
      store,
      server: { url: `http://127.0.0.1:${wire.port}/ari`, username: 'ringflow', password: 'secret' },
      app: 'ivr',
      logger,
      leaseTtlMs: 1_500,
      renewMs: 250,
    });
    const seen: StreamEvent[] = [];
    const app = createApplication({
      servers: [
        { ...cluster.serverOptions, eventTransport: counting(cluster.serverOptions.eventTransport!, seen) },
      ],
      apps: ['ivr'],
      call: machine,
      store,
      acceptCall: cluster.acceptCall,
      logger,
      onCallEnded: (e) => ended.push(e),
    });
    await app.start();
    cluster.run(app);
    let dead = false;
    cleanups.push(async () => {
      if (!dead) {
        await cluster.stopHolding();
        await app.stop();
        await cluster.stop();
      }
      await store.close().catch(() => {});
    });
    return {
      name,
      app,
      cluster,
      seen,
      store,
      /** As if the process died: its calls let go (last records written), its NATS connection gone. */
      kill: async () => {
        dead = true;
        await cluster.stopHolding();
        await app.detach();
        await store.close();
      },
    };
  };
  const room = async () =>
    (await sim.handle({ method: 'GET', path: ROOM, query: {} })) as {
      status: number;
      body: { channels: string[] };
    };
  return { sim, worker, ended, room };
}

type Worker = Awaited<ReturnType<Awaited<ReturnType<typeof environment>>['worker']>>;

/** The flow state the call's machine is in (its JSON, to match a state name anywhere in it). */
const state = (app: Application, call: string) =>
  JSON.stringify(app.call(call)?.machine?.getSnapshot().value ?? '');

describe('classic cluster mode, per-worker subjects', () => {
  it("a worker's feed delivers none of another worker's calls' events; a room with callers on two workers works", async () => {
    const { sim, worker, ended, room } = await environment();
    const w1 = await worker('w1');
    await until('w1 to hold the event connection', () => w1.cluster.holding);
    const w2 = await worker('w2');
    const workers = [w1, w2];
    await until('both workers listed by both', () => workers.every((w) => w.cluster.liveWorkers.size === 2));
    const calls = Array.from({ length: 4 }, (_, i) =>
      sim.driver.placeCall({ context: 'pbx', to: '100', from: `555000${i}` }),
    );
    const driver = (call: string) => workers.find((w) => w.app.call(call) !== undefined);
    await until('every call asked for its PIN', () =>
      calls.every((c) => driver(c) && state(driver(c)!.app, c).includes('ask-pin')),
    );
    // Spread over both workers (who drives which, kept: the calls end before the count below).
    const owners = new Map(calls.map((c) => [c, driver(c)!] as const));
    const on = (w: Worker) => calls.filter((c) => owners.get(c) === w);
    expect(on(w1).length).toBeGreaterThan(0);
    expect(on(w2).length).toBeGreaterThan(0);
    // A moderator driven by w1, the other callers members (at least one driven by w2).
    const moderator = on(w1)[0]!;
    for (const c of calls) sim.driver.pressDigits(c, c === moderator ? '1234#' : '5678#');
    await until('every member in the room with the moderator', () =>
      calls.every((c) => state(owners.get(c)!.app, c).includes(c === moderator ? 'moderating' : 'in-room')),
    );
    expect((await room()).body.channels.sort()).toEqual([...calls].sort());
    // The moderator leaves: the room stays for the members, on both workers.
    sim.driver.hangup(moderator);
    await until('the moderator’s call ended', () => ended.some((e) => e.callId === moderator));
    const members = calls.filter((c) => c !== moderator);
    expect((await room()).body.channels.sort()).toEqual([...members].sort());
    for (const c of members) sim.driver.hangup(c);
    await until('every call ended', () => calls.every((c) => ended.some((e) => e.callId === c)));
    await until('the room closed by the last one out', async () => (await room()).status === 404);
    expect(ended.filter((e) => calls.includes(e.callId))).toHaveLength(4);
    // Each worker's feed delivered its own calls' events, and no event about another worker's
    // call that names no bridge (events about the room reach every worker).
    for (const w of workers) {
      const others = new Set(calls.filter((c) => owners.get(c) !== w));
      const refs = (e: StreamEvent) => eventResources(e);
      const foreign = w.seen.filter(
        (e) =>
          !refs(e).some((r) => r.kind === 'bridge') &&
          refs(e).some((r) => r.kind === 'channel' && others.has(r.id)),
      );
      expect(foreign.map((e) => e.type)).toEqual([]);
      const own = w.seen.filter((e) => refs(e).some((r) => r.kind === 'channel' && on(w).includes(r.id)));
      expect(own.length).toBeGreaterThan(0);
    }
  }, 90_000);

  it("a gone worker's calls go on on another: the keys pressed meanwhile replayed, the events after the takeover delivered there", async () => {
    const { sim, worker, ended, room } = await environment();
    const w1 = await worker('w1');
    await until('w1 to hold the event connection', () => w1.cluster.holding);
    const w2 = await worker('w2');
    await until('both workers listed by both', () => [w1, w2].every((w) => w.cluster.liveWorkers.size === 2));
    const calls = Array.from({ length: 4 }, (_, i) =>
      sim.driver.placeCall({ context: 'pbx', to: '100', from: `555100${i}` }),
    );
    await until('every call asked for its PIN', () =>
      calls.every((c) => [w1, w2].some((w) => state(w.app, c).includes('ask-pin'))),
    );
    const victims = calls.filter((c) => w2.app.call(c) !== undefined);
    expect(victims.length).toBeGreaterThan(1);
    await until('the victims’ records written', async () =>
      (await Promise.all(victims.map((c) => w1.store.has(c)))).every(Boolean),
    );
    await w2.kill();
    // Pressed while nobody drives these calls (w2 gone, w1 not yet sure): the holder published the
    // keys for w2.
    const [first, ...rest] = victims as [string, ...string[]];
    sim.driver.pressDigits(first, '1234#');
    for (const c of rest) sim.driver.pressDigits(c, '5678#');
    // w1 takes them over; the moderator's prompt and the room's events after that reach w1.
    await until('the taken-over moderator in the room', () => state(w1.app, first).includes('moderating'));
    await until('the taken-over members in the room with the moderator', () =>
      rest.every((c) => state(w1.app, c).includes('in-room')),
    );
    expect((await room()).body.channels.sort()).toEqual([...victims].sort());
    for (const c of calls) sim.driver.hangup(c);
    await until('every victim’s call ended on w1', () =>
      victims.every((c) => ended.some((e) => e.callId === c && e.status !== 'detached')),
    );
    // Each taken-over call ended once after its takeover.
    for (const c of victims)
      expect(ended.filter((e) => e.callId === c && e.status !== 'detached')).toHaveLength(1);
  }, 90_000);
});
