import type { Clock } from '@ringflow/client';
import { createFlowCallMachine, type Flow } from '@ringflow/dsl';
import type { ClassicCluster, JetStreamCallStore } from '@ringflow/cluster';
import {
  type AgentMetricsSink,
  type CallSession,
  createApplication,
  formatCallEnd,
  type ListenOptions,
  type OpsServer,
  SharedQueueStore,
} from '@ringflow/runtime';
import { pino } from 'pino';
import type { InspectionEvent } from 'xstate';
import type { CommandIo } from '../CommandIo.ts';
import { ExitCode } from '../ExitCode.ts';
import { agentServicesForRun } from './agentServicesForRun.ts';
import { formatLogLine } from './formatLogLine.ts';
import type { OutputFormat } from '../OutputFormat.ts';

export interface ServerRunOptions {
  readonly flow: Flow;
  /** The flow's file: a call saved from the live view as a scenario names it. */
  readonly flowFile?: string;
  /** The server to dial (and, with `listen`, the HTTP address for binary downloads). */
  readonly server?: { readonly url: string; readonly username: string; readonly password: string };
  /** Where to wait for servers that dial the application (outbound WebSockets). */
  readonly listen?: ListenOptions;
  readonly app: string;
  /**
   * A NATS address, or a NATS cluster's, comma separated: calls are kept in JetStream, and SIGTERM
   * hands them over to other processes.
   */
  readonly cluster?: string;
  /** Copies of the cluster's buckets and events stream in a NATS cluster (1, 3 or 5). Default 1. */
  readonly clusterReplicas?: number;
  /**
   * Classic cluster mode: how long a process's leases (the event connection, its worker lease)
   * outlive its last renewal. Longer than a NATS restart takes, so a restart costs no takeover;
   * shorter makes takeovers after a crash faster. Default 5 s.
   */
  readonly clusterLeaseMs?: number;
  /**
   * Classic cluster mode: how long the event connection's holder may go without an accepted
   * renewal before another process takes the connection over. Default 800 ms.
   */
  readonly clusterHolderTakeoverMs?: number;
  /** Serve /metrics, /healthz and /readyz there (see startOpsServer). */
  readonly http?: {
    readonly host: string;
    readonly port: number;
    readonly auth?: { readonly username: string; readonly password: string };
  };
  readonly inputs: Readonly<Record<string, unknown>>;
  /** How long calls may go on after SIGTERM/SIGINT before they are hung up. */
  readonly drainMs: number;
  readonly format: OutputFormat;
  readonly io: CommandIo;
  readonly clock: Clock;
  /** Resolves with the first stop signal; `onAgain` is called for each later one. */
  readonly waitForStop: (onAgain: () => void) => Promise<string>;
}

function time(clock: Clock): string {
  return new Date(clock.now()).toISOString().slice(11, 23);
}

/**
 * Runs a flow as an application on a real server (or any ARI server): every channel entering
 * `app` runs the flow. On a terminal each call's states are shown as they happen; otherwise the
 * runtime's pino log (JSON lines) goes to stdout. SIGTERM/SIGINT drain: no new calls, active calls
 * may finish until the deadline, the rest are hung up, then exit 0; a second signal exits 1.
 *
 * @example
 * await runOnServer({ flow, url: 'http://pbx:8088/ari', username: 'u', password: 'p', app: 'ivr', ... });
 */
export async function runOnServer(options: ServerRunOptions): Promise<number> {
  const { io, clock } = options;
  const text = options.format === 'text';
  const say = (line: string) => io.stderr(`${line}\n`);
  const logger = text
    ? pino({ level: 'warn' }, { write: (s: string) => io.stderr(formatLogLine(s)) })
    : pino({ level: 'info' }, { write: (s: string) => io.stdout(s) });
  // Agent steps get their bots, media sockets and speech from here; checked before anything starts.
  let agentMetrics: AgentMetricsSink | undefined;
  const agentSetup = await agentServicesForRun(options.flow, {
    ariUrl: options.server?.url,
    metrics: {
      turnLatency: (ms) => agentMetrics?.turnLatency(ms),
      interrupted: () => agentMetrics?.interrupted(),
      ended: (outcome) => agentMetrics?.ended(outcome),
    },
  });
  if ('problem' in agentSetup) {
    say(`ringflow run: ${agentSetup.problem}`);
    return ExitCode.FAILURE;
  }
  const { agents } = agentSetup;
  if (agentSetup.summary) say(`ringflow run: ${agentSetup.summary}`);
  let store: JetStreamCallStore | undefined;
  if (options.cluster) {
    const { JetStreamCallStore } = await import('@ringflow/cluster');
    try {
      store = await JetStreamCallStore.connect(options.cluster.split(','), {
        ...(options.clusterReplicas !== undefined ? { replicas: options.clusterReplicas } : {}),
      });
    } catch (error) {
      say(`ringflow run: --cluster: ${(error as Error).message}`);
      return ExitCode.FAILURE;
    }
    say(
      `ringflow run: cluster mode: calls kept in NATS JetStream at ${options.cluster} (process ${store.owner})`,
    );
  }
  // The call queues too: one state for every process (callers in one order, an agent offered
  // one caller at a time), in a JetStream KV bucket of their own.
  let queueStore: SharedQueueStore | undefined;
  if (store) {
    const { JetStreamQueueRevisions } = await import('@ringflow/cluster');
    try {
      const revisions = await JetStreamQueueRevisions.open({
        connection: store.connection,
        ...(options.clusterReplicas !== undefined ? { replicas: options.clusterReplicas } : {}),
      });
      queueStore = new SharedQueueStore({ revisions, clock, logger });
    } catch (error) {
      say(`ringflow run: --cluster: ${(error as Error).message}`);
      await store.close();
      return ExitCode.FAILURE;
    }
  }
  const natsHealth = store
    ? (await import('@ringflow/cluster')).NatsHealth.follow(store.connection)
    : undefined;
  // A server reached the classic way gives the application's events to one connection: one process
  // at a time holds it (a lease in NATS) and the others get the events from a JetStream stream.
  let classic: ClassicCluster | undefined;
  if (store && options.server && !options.listen) {
    const { ClassicCluster } = await import('@ringflow/cluster');
    try {
      classic = await ClassicCluster.start({
        connection: store.connection,
        store,
        server: options.server,
        app: options.app,
        logger,
        ...(options.clusterLeaseMs !== undefined ? { leaseTtlMs: options.clusterLeaseMs } : {}),
        ...(options.clusterHolderTakeoverMs !== undefined
          ? { holderTakeoverMs: options.clusterHolderTakeoverMs }
          : {}),
        ...(options.clusterReplicas !== undefined ? { replicas: options.clusterReplicas } : {}),
      });
    } catch (error) {
      say(`ringflow run: --cluster: ${(error as Error).message}`);
      await store.close();
      return ExitCode.FAILURE;
    }
    const { leaseTtlMs, holderTakeoverMs } = classic.timings;
    say(
      `ringflow run: cluster mode with ${options.server.url}: one process holds its event connection (elected in NATS; taken over ${holderTakeoverMs} ms after its last accepted renewal), every process drives the calls assigned to it (leases of ${leaseTtlMs / 1000} s)`,
    );
  }
  // With --http, the console's live view: loaded only then (it adds nothing to a plain run).
  const view = options.http
    ? (await import('../dev/liveView.ts')).createLiveView([
        { flow: options.flow, file: options.flowFile ?? `${options.flow.document.name}.yaml` },
      ])
    : undefined;
  const app = createApplication({
    servers: options.server ? [classic ? classic.serverOptions : options.server] : [],
    ...(store ? { store } : {}),
    ...(queueStore ? { queueStore } : {}),
    ...(classic ? { acceptCall: classic.acceptCall, restoreAtStart: classic.restoreAtStart } : {}),
    ...(options.listen
      ? { listen: { ...options.listen, ...(options.server ? { http: options.server } : {}) } }
      : {}),
    apps: [options.app],
    call: view
      ? view.machineOf(options.flow, options.inputs, agents)
      : createFlowCallMachine(options.flow, { inputs: { ...options.inputs }, ...(agents ? { agents } : {}) }),
    clock,
    logger,
  });
  agentMetrics = app.metrics.agents;
  // The cluster's roles at /metrics (who holds the event connection, fences, takeovers).
  if (classic) (await import('@ringflow/cluster')).observeClassicCluster(app.metrics.registry, classic);
  let forced: (code: number) => void = () => {};
  const second = new Promise<number>((resolve) => {
    forced = resolve;
  });
  const stop = options.waitForStop(() => {
    say('ringflow run: second stop signal, exiting without waiting for calls');
    forced(ExitCode.FAILURE);
  });
  // Started before connecting, so /readyz says 503 (and why) while the servers are not there yet.
  let ops: OpsServer | undefined;
  if (options.http) {
    const { applicationReadiness, startOpsServer } = await import('@ringflow/runtime');
    try {
      ops = await startOpsServer({
        ...options.http,
        metrics: () => app.metrics.toPrometheus(),
        readiness: () => {
          const readiness = applicationReadiness(app);
          const reasons = [...readiness.reasons];
          // In cluster mode a process without NATS keeps no record and cannot take calls over.
          const nats = natsHealth?.problem;
          if (nats) reasons.push(nats);
          // A worker that lost its cluster lease drives no call until it holds it again.
          if (classic?.fenced)
            reasons.push(
              'cluster: this process lost its worker lease (NATS unreachable or not answering) and let its calls go; it takes calls again once it holds the lease',
            );
          return { ready: reasons.length === 0, reasons };
        },
        ...(view ? { handlers: [view.handler] } : {}),
      });
    } catch (error) {
      const { host, port } = options.http;
      say(`ringflow run: --http: cannot listen on ${host}:${port}: ${(error as Error).message}`);
      await app.stop().catch(() => {});
      await classic?.stop();
      await store?.close();
      return ExitCode.FAILURE;
    }
    say(`ringflow run: metrics on ${ops.url}/metrics, probes on ${ops.url}/healthz and ${ops.url}/readyz`);
    say(`ringflow run: live view of the calls on ${ops.url}/console/`);
    view?.follow(app.calls$);
  }
  try {
    await Promise.race([app.start(), stop.then(() => Promise.reject(new Error('stopped while connecting')))]);
  } catch (error) {
    say(
      options.server
        ? refusedAccount(error)
          ? // In the words of this command line: the user never called createRestClient.
            `ringflow run: ${options.server.url} refused the user '${options.server.username}' (${refusedAccount(error)}).\n` +
            'Check --user name:password: an ARI user of the server (ari.conf, read_only = no).'
          : `ringflow run: cannot connect to ${options.server.url} as ${options.server.username}: ${(error as Error).message}\n` +
            'Check the URL (it ends with /ari), --user name:password (an ARI user of ari.conf), and that http.conf has enabled=yes.'
        : `ringflow run: cannot listen on ${options.listen?.host}:${options.listen?.port}: ${(error as Error).message}`,
    );
    await app.stop().catch(() => {});
    view?.close();
    await ops?.close();
    await classic?.stop();
    await store?.close();
    return ExitCode.FAILURE;
  }
  classic?.run(app);
  if (text) {
    const where = [
      ...(options.server ? [`on ${options.server.url}`] : []),
      ...(app.listening ? [`listening for servers on ${app.listening.url}`] : []),
    ].join(', ');
    io.stdout(
      `ringflow: flow "${options.flow.document.name}" is running as application "${options.app}" ${where}\n` +
        `Send calls to it from the dialplan with Stasis(${options.app}). Ctrl-C drains calls (up to ${options.drainMs / 1000} s) and stops.\n`,
    );
    app.calls$.subscribe((session) => watch(session, options.flow.document.start, clock, io));
  }
  const signal = await stop;
  const drained = (async () => {
    const active = app.activeCalls().length;
    if (store) {
      // Cluster mode: the calls are handed over, not drained. Their last records are written, the
      // sockets close, the server re-dials each call and another process takes it over.
      say(`ringflow run: ${signal}: handing ${active} call${active === 1 ? '' : 's'} over to the cluster`);
      // The event connection first (another process takes it at once), then the calls' last
      // records, then this worker's lease (the others take its calls within 2–3 s).
      await classic?.stopHolding();
      await app.detach();
      await classic?.stop();
      await store.close();
      await ops?.close();
      say('ringflow run: stopped');
      return ExitCode.OK;
    }
    say(
      `ringflow run: ${signal}: draining ${active} call${active === 1 ? '' : 's'}, up to ${options.drainMs / 1000} s`,
    );
    await app.drain({ deadlineMs: options.drainMs });
    const listener = app.listening;
    await app.stop();
    view?.close();
    await ops?.close();
    if (listener)
      say(
        `ringflow run: servers opened ${listener.acceptedConnections} connection(s) to the application (${listener.refusedConnections} refused)`,
      );
    say('ringflow run: stopped');
    return ExitCode.OK;
  })();
  return Promise.race([drained, second]);
}

/**
 * The server's answer when it refused the account (401 on a request or on the event stream's
 * handshake): `401 "Authentication required"`; undefined for any other failure.
 */
function refusedAccount(error: unknown): string | undefined {
  const { status, serverMessage } = error as { status?: unknown; serverMessage?: unknown };
  if (status !== 401) return undefined;
  return typeof serverMessage === 'string' && serverMessage !== '' ? `401 "${serverMessage}"` : '401';
}

/** Prints a call's start, each state it enters, and its end. */
function watch(session: CallSession, start: string, clock: Clock, io: CommandIo): void {
  const id = session.channelId;
  io.stdout(`${time(clock)}  ${id}  call started (${session.direction})\n`);
  let current = '';
  const enter = (state: string) => {
    if (state === current || state.startsWith('$') || state === '') return;
    current = state;
    io.stdout(`${time(clock)}  ${id}  ◆ ${state}\n`);
  };
  queueMicrotask(() => {
    const actor = session.machine;
    if (!actor) return;
    enter(start);
    const top = (value: unknown) =>
      typeof value === 'string' ? value : (Object.keys(value as object)[0] ?? '');
    enter(top(actor.getSnapshot().value));
    const inspection = actor.system.inspect((event: InspectionEvent) => {
      if (event.type === '@xstate.microstep' && event.actorRef === actor)
        enter(top((event.snapshot as unknown as { value: unknown }).value));
    });
    void session.done.then((outcome) => {
      inspection.unsubscribe();
      const end = session.result ? formatCallEnd(session.result) : outcome;
      io.stdout(`${time(clock)}  ${id}  ■ call ended: ${end}\n`);
    });
  });
}
