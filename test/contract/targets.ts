import { createEventStream, UndiciTransport, VirtualClock } from '@ringflow/client';
import { inProcessEventTransport, inProcessRestTransport } from '@ringflow/runtime';
import { startWireServer } from '@ringflow/simulator';
import type { Scenario } from './Scenario.ts';
import { type ContractSession, createSession } from './ContractSession.ts';
import { CountingServer } from './CountingServer.ts';
import { dialledTarget } from './dialledTargets.ts';
import { ARRIVAL_TIMEOUT_MS, MAX_VIRTUAL_MS, simulator, START, USER } from './targetSettings.ts';

/**
 * One implementation of the interface the contract suite runs against. `start` gives a fresh
 * session; scenarios never learn which target they run on.
 */
export interface ContractTarget {
  readonly name: string;
  /** A simulator on virtual time: its transcripts must match the other simulated targets exactly. */
  readonly simulated: boolean;
  /** Why `scenario` cannot run on this target (it is skipped), or undefined when it can. */
  skips?(scenario: Scenario): string | undefined;
  start(): Promise<ContractSession>;
}

/** The simulator in this process, reached through the runtime's in-process transports: no sockets. */
export const inProcessTarget: ContractTarget = {
  name: 'in-process',
  simulated: true,
  async start() {
    const clock = new VirtualClock(START);
    const sim = simulator(clock);
    const server = new CountingServer(sim);
    const events = inProcessEventTransport(server);
    return createSession({
      target: 'in-process',
      url: 'http://simulator/ari',
      ...USER,
      transport: inProcessRestTransport(server),
      pace: { kind: 'virtual', clock, maxVirtualMs: MAX_VIRTUAL_MS, arrivalTimeoutMs: ARRIVAL_TIMEOUT_MS },
      idPrefix: '',
      driver: sim.driver,
      openStream: (apps, subscribeAll) =>
        createEventStream({
          url: 'http://simulator/ari',
          apps,
          subscribeAll,
          transport: events,
          // No socket can die silently in process.
          pingIntervalMs: 0,
        }),
      claimCount: (apps) => server.claim(apps),
      shutdown: async () => sim.close(),
    });
  },
};

/**
 * The same simulator behind its wire server on 127.0.0.1 (an OS-chosen port): HTTP through
 * undici, events through a WebSocket. Time is virtual too, moved by the test only when every
 * event the server sent has crossed the socket, so runs are fast and repeatable.
 */
export const wireTarget: ContractTarget = {
  name: 'wire',
  simulated: true,
  async start() {
    const clock = new VirtualClock(START);
    const sim = simulator(clock);
    const server = new CountingServer(sim);
    const wire = await startWireServer(server, { users: [USER], clock, asteriskId: sim.asteriskId });
    return createSession({
      target: 'wire',
      url: wire.url,
      ...USER,
      transport: new UndiciTransport({ url: wire.url, ...USER }),
      pace: { kind: 'virtual', clock, maxVirtualMs: MAX_VIRTUAL_MS, arrivalTimeoutMs: ARRIVAL_TIMEOUT_MS },
      idPrefix: '',
      openStream: (apps, subscribeAll) => createEventStream({ url: wire.url, apps, subscribeAll, ...USER }),
      claimCount: (apps) => server.claim(apps),
      shutdown: async () => {
        await wire.close();
        sim.close();
      },
    });
  },
};

/**
 * The wire simulator again, with every REST request carried over an event WebSocket as
 * `RESTRequest` frames (`restOverSocket`), as an application does when the server dialled it.
 * Only binary downloads (recording files) go over HTTP, which a socket cannot carry.
 */
export const restOverSocketTarget: ContractTarget = {
  name: 'rest-over-socket',
  simulated: true,
  async start() {
    const clock = new VirtualClock(START);
    const sim = simulator(clock);
    const server = new CountingServer(sim);
    const wire = await startWireServer(server, { users: [USER], clock, asteriskId: sim.asteriskId });
    // An application of its own carries the requests; nothing is ever sent to it.
    const carrier = createEventStream({
      url: wire.url,
      apps: ['rest-carrier'],
      ...USER,
      restOverSocket: true,
      restFallback: new UndiciTransport({ url: wire.url, ...USER }),
    });
    await carrier.whenOpen();
    return createSession({
      target: 'rest-over-socket',
      url: wire.url,
      ...USER,
      transport: carrier.restTransport!,
      pace: { kind: 'virtual', clock, maxVirtualMs: MAX_VIRTUAL_MS, arrivalTimeoutMs: ARRIVAL_TIMEOUT_MS },
      idPrefix: '',
      openStream: (apps, subscribeAll) => createEventStream({ url: wire.url, apps, subscribeAll, ...USER }),
      claimCount: (apps) => server.claim(apps),
      shutdown: async () => {
        await carrier.close();
        await wire.close();
        sim.close();
      },
    });
  },
};

/**
 * A real server, when `RINGFLOW_ARI_URL`, `RINGFLOW_ARI_USER` and `RINGFLOW_ARI_PASSWORD` are
 * set (see README.md for the dialplan it needs). Ids get a per-run prefix, as the server is
 * shared and outlives the run.
 */
export function realServerTarget(env: NodeJS.ProcessEnv = process.env): ContractTarget | undefined {
  const url = env.RINGFLOW_ARI_URL;
  const username = env.RINGFLOW_ARI_USER;
  const password = env.RINGFLOW_ARI_PASSWORD;
  if (!url || !username || !password) return undefined;
  let runs = 0;
  const run = Date.now().toString(36);
  return {
    name: 'real-server',
    simulated: false,
    async start() {
      runs += 1;
      return createSession({
        target: 'real-server',
        url,
        username,
        password,
        transport: new UndiciTransport({ url, username, password }),
        pace: { kind: 'real', timeoutMs: 15_000 },
        idPrefix: `ct${run}${runs}-`,
        openStream: (apps, subscribeAll) =>
          createEventStream({ url, apps, subscribeAll, username, password }),
        shutdown: async () => {},
      });
    },
  };
}

/** The server dials the application: one persistent connection for the scenario's applications. */
export const dialledPersistentTarget = dialledTarget('persistent', 'wire');
/** The server dials one connection per call; scenarios without a per-call form are skipped. */
export const dialledPerCallTarget = withPerCallSkips(dialledTarget('per-call', 'wire'));
/** Both again over in-memory pipes instead of sockets (`connectInProcess`). */
export const dialledInProcessTargets = [
  dialledTarget('persistent', 'in-process'),
  withPerCallSkips(dialledTarget('per-call', 'in-process')),
];

function withPerCallSkips<T extends ContractTarget>(target: T): T {
  return Object.assign(target, { skips: (scenario: Scenario) => scenario.notPerCall });
}

/** The targets of this run, decided when the suite loads. */
export function contractTargets(): ContractTarget[] {
  const real = realServerTarget();
  return [
    inProcessTarget,
    wireTarget,
    restOverSocketTarget,
    dialledPersistentTarget,
    dialledPerCallTarget,
    ...dialledInProcessTargets,
    ...(real ? [real] : []),
  ];
}
