import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Clock } from '@ringflow/client';
import type { Flow } from '@ringflow/dsl';
import { type Command, parseCommandLine, UsageError } from '../Command.ts';
import { type CommandIo, waitForProcessStop } from '../CommandIo.ts';
import { ExitCode } from '../ExitCode.ts';
import { outputFormat } from '../OutputFormat.ts';
import { accountOption } from '../parseAccount.ts';
import { parseHttpAddress } from '../parseHttpAddress.ts';
import { parseListenAddress } from '../parseListenAddress.ts';
import { parseServerUrl } from '../parseServerUrl.ts';
import { type DemoCaller, demoCallersFromSuite, silentCaller } from '../run/demoCallers.ts';

const HELP = `Usage: ringflow run <flow.yaml> [options]

Runs a flow as an ARI application: every call entering the application runs the flow.

Against a server (Asterisk or the simulator over the wire):
  ringflow run flows/ivr.yaml --server http://127.0.0.1:8088 --user asterisk:secret --app ivr
  The dialplan sends calls in with Stasis(<app>). Runs until SIGTERM or SIGINT (Ctrl-C), then drains:
  no new calls, calls in progress may finish until --drain, the rest are hung up, exit 0.

Flows with agent steps (voice bots, docs/agents.md) need --server: the caller's audio goes through
a media socket on the server's HTTP port (/media/<id>) to the bot at the URL the flow names. Bots
of the text relay get the local speech providers, espeak-ng and pocketsphinx (apt-get install -y
espeak-ng pocketsphinx pocketsphinx-en-us; ringflow run stops at once, saying so, without them);
bots of protocol: audio need none.

Waiting for servers to dial the application (outbound WebSockets, persistent or per call):
  ringflow run flows/ivr.yaml --listen 127.0.0.1:8765 --app ow-call --listen-user appuser:apppass
  Put uri = ws://127.0.0.1:8765/ in the server's websocket_client.conf (with the same username and
  password) and apps = ow-call in its ari.conf outbound_websocket section. Every REST request goes
  over the socket the call arrived on; with --server too, binary downloads use that HTTP address.

Several processes sharing calls (cluster mode, NATS JetStream), with per-call connections:
  ringflow run flows/ivr.yaml --listen 127.0.0.1:8765 --app ow-call --cluster nats://127.0.0.1:4222
  Each call's state is kept in a JetStream key-value bucket after every step. When a process dies,
  the server re-dials its calls' connections; the process they reach (through your load balancer)
  takes each call over where it was. SIGTERM hands the calls over instead of draining them.

Several processes sharing calls on a server reached the classic way (one event connection):
  ringflow run flows/ivr.yaml --server http://pbx:8088 --user u:p --cluster nats://127.0.0.1:4222
  Run it several times: one process (elected by a lease in NATS) holds the event connection and
  publishes the events into a JetStream stream; every process drives the calls assigned to it.
  When one dies, another takes its role over within 4–7 s. SIGTERM hands the calls over.

Without --server or --listen, on the embedded simulator (in process, nothing to install), with simulated
callers, in virtual time paced on the real clock; it ends by itself with a summary:
  ringflow run flows/ivr.yaml            one caller who listens and presses nothing
  ringflow run flows/ivr.yaml --demo     one caller per scenario of flows/ivr.test.yaml, side by
                                         side (keys, silences, hangups, far ends as scenarios say)

Options:
  --server <url>          the server's HTTP address (http://host:8088; /ari is added when missing)
  --user <name:password>  an ARI user of the server (ari.conf); with --server
  --listen <host:port[/path]>  wait for servers to dial the application there (outbound WebSockets)
  --listen-user <name:password>  with --listen: the account servers must send (websocket_client.conf)
  --cluster <nats://host:port>  with --listen or --server: keep calls in NATS JetStream (a
                          key-value bucket, made when missing) so that other processes take
                          them over; with --server alone, share the server's event connection.
                          A NATS cluster: every node, comma separated (nats://a:4222,nats://b:4222,...)
  --cluster-replicas <n>  with --cluster: copies of the buckets and the events stream in a NATS
                          cluster, 1, 3 or 5 (default 1: one NATS server; 3 on three nodes)
  --cluster-lease <duration>  with --cluster and --server: how long a process's leases outlive
                          its last renewal (default 5s): a dead process's calls move after about
                          this; a process cut from NATS this long lets its calls go
  --cluster-holder-takeover <duration>  with --cluster and --server: how long the event
                          connection's holder may go without a renewal NATS accepted before
                          another process takes the connection over (default 800ms, at least
                          600ms, below the lease): longer for processes held to a CPU quota,
                          whose event loop can stall longer than that under load
  --app <name>            the application name of Stasis(<name>) (default: the flow's name)
  --input <name=value>    a flow input (input.<name>); repeat for more; the value is converted
                          to the declared type (number, boolean, duration, list: a,b or JSON)
  --http <[host:]port>    with --server or --listen: serve /metrics (Prometheus), /healthz and
                          /readyz (503 until every server's event stream is connected) there;
                          a bare port binds to 127.0.0.1
  --http-user <name:password>  with --http: require these HTTP Basic credentials
  --drain <duration>      with --server: how long calls may finish after a stop signal (default 30s)
  --demo                  embedded: callers from the flow's scenario file (<flow>.test.yaml)
  --speed <n|max>         embedded: virtual seconds per real second (default 20; max: no waiting)
  --limit <duration>      embedded: callers still on the line after this hang up (default 5m)
  --format <text|json>    text: a live view for people (default on a terminal); json: one JSON
                          object per line (default otherwise; with --server, the runtime's pino log)
  -h, --help              show this help

Accounts are given as name:password everywhere (--user, --listen-user, --http-user, as in
'ringflow call' and 'ringflow simulator'); --user name --password pw (and --listen-password,
--http-password) is accepted too.

Exit codes:
  0  the demo ended, or the application drained and stopped after SIGTERM/SIGINT
  1  the flow has errors, the server could not be reached, or a second stop signal
  2  wrong command line (an --input the flow does not declare, or that does not fit its type)
`;

/** What `run` needs from the outside, passed in so tests can run it in process. */
export interface RunDependencies {
  /** The real clock (pacing of the embedded demo, timestamps, drain deadline); default: the system's. */
  readonly clock?: Clock;
}

/**
 * `ringflow run`: a flow as an application, on a server or on the embedded simulator.
 *
 * @example
 * await createRunCommand().run(['flows/ivr.yaml', '--demo', '--speed', 'max'], io);
 */
export function createRunCommand(deps: RunDependencies = {}): Command {
  return {
    name: 'run',
    summary: 'run a flow as an application (on a server, or on the embedded simulator with --demo)',
    help: HELP,
    run: (args, io) => run(args, io, deps),
  };
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      listen: { type: 'string' },
      cluster: { type: 'string' },
      'cluster-lease': { type: 'string' },
      'cluster-holder-takeover': { type: 'string' },
      'cluster-replicas': { type: 'string' },
      http: { type: 'string' },
      'http-user': { type: 'string' },
      'http-password': { type: 'string' },
      'listen-user': { type: 'string' },
      'listen-password': { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      app: { type: 'string' },
      input: { type: 'string', multiple: true },
      drain: { type: 'string' },
      demo: { type: 'boolean' },
      speed: { type: 'string' },
      limit: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function duration(
  value: string | undefined,
  fallback: number,
  option: string,
  parseDuration: (value: string) => number | undefined,
): number {
  if (value === undefined) return fallback;
  const ms = parseDuration(value); // a bare number is seconds
  if (ms === undefined)
    throw new UsageError(`${option}: expected a duration such as 30s or 2m, got '${value}'`);
  return ms;
}

async function run(args: readonly string[], io: CommandIo, deps: RunDependencies): Promise<ExitCode> {
  const { values, positionals } = parseCommandLine(() => parse(args));
  if (values.help) {
    io.stdout(HELP);
    return ExitCode.OK;
  }
  // Each way of running loads what it needs, when it runs: on a server, the runtime and no
  // simulator; embedded, the test harness. `ringflow --help` loads neither.
  const {
    convertFlowInputs,
    convertInputValue,
    describeFileError,
    FlowValidationError,
    formatDiagnostic,
    loadFlowFile,
    parseDuration,
  } = await import('@ringflow/dsl');
  const clock = deps.clock ?? (await import('@ringflow/client')).systemClock;
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError('give a flow file, e.g. ringflow run flows/ivr.yaml --demo');
  if (extra.length > 0) throw new UsageError(`one flow at a time; unexpected '${extra[0]}'`);
  const format = outputFormat(values.format, io);
  const inputs: Record<string, string> = {};
  for (const item of values.input ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`--input: expected name=value, got '${item}'`);
    inputs[item.slice(0, eq)] = item.slice(eq + 1);
  }
  const listen = values.listen === undefined ? undefined : parseListenAddress(values.listen);
  const listenAccount = accountOption(values['listen-user'], values['listen-password'], '--listen-user');
  if (listenAccount !== undefined && listen === undefined)
    throw new UsageError('--listen-user goes with --listen');
  const onServer = values.server !== undefined || listen !== undefined;
  if (values.cluster !== undefined) {
    if (listen === undefined && values.server === undefined)
      throw new UsageError(
        '--cluster goes with --server (one process at a time holds the event connection, the calls are shared) or --listen (per-call connections); see docs/cluster.md',
      );
    for (const address of values.cluster.split(','))
      if (!/^(nats|tls):\/\/[^/\s]+:\d+\/?$/.test(address))
        throw new UsageError(
          `--cluster: expected a NATS address such as nats://127.0.0.1:4222 (or several, comma separated), got '${address}'`,
        );
  }
  const clusterReplicas =
    values['cluster-replicas'] === undefined ? undefined : Number(values['cluster-replicas']);
  if (clusterReplicas !== undefined && values.cluster === undefined)
    throw new UsageError('--cluster-replicas goes with --cluster');
  if (
    clusterReplicas !== undefined &&
    clusterReplicas !== 1 &&
    clusterReplicas !== 3 &&
    clusterReplicas !== 5
  )
    throw new UsageError(`--cluster-replicas: 1, 3 or 5, got '${values['cluster-replicas']}'`);
  const http = values.http === undefined ? undefined : parseHttpAddress(values.http);
  if (http && !onServer) throw new UsageError('--http goes with --server or --listen');
  const httpAccount = accountOption(values['http-user'], values['http-password'], '--http-user');
  if (httpAccount !== undefined && http === undefined) throw new UsageError('--http-user goes with --http');
  if (values.server !== undefined) {
    if (values.user === undefined)
      throw new UsageError(
        '--server needs --user and --password of an ARI user (ari.conf): --user name:password',
      );
    for (const option of ['demo', 'speed', 'limit'] as const)
      if (values[option] !== undefined)
        throw new UsageError(`--${option} is for the embedded simulator; drop it or drop --server`);
  } else if (onServer) {
    for (const option of ['demo', 'speed', 'limit'] as const)
      if (values[option] !== undefined)
        throw new UsageError(`--${option} is for the embedded simulator; drop it or drop --listen`);
  } else {
    for (const option of ['user', 'password', 'drain'] as const)
      if (values[option] !== undefined) throw new UsageError(`--${option} goes with --server`);
  }
  const serverAccount = accountOption(values.user, values.password);
  const speed =
    values.speed === undefined || values.speed === 'max'
      ? values.speed === 'max'
        ? Number.POSITIVE_INFINITY
        : 20
      : Number(values.speed);
  if (!(speed > 0)) throw new UsageError(`--speed: expected a number above 0 or max, got '${values.speed}'`);
  const limitMs = duration(values.limit, 300_000, '--limit', parseDuration);
  const drainMs = duration(values.drain, 30_000, '--drain', parseDuration);
  /** A duration option of the classic event connection: it needs --cluster and --server. */
  const classicDuration = (option: 'cluster-lease' | 'cluster-holder-takeover'): number | undefined => {
    const value = values[option];
    if (value === undefined) return undefined;
    if (values.cluster === undefined || values.server === undefined || values.listen !== undefined)
      throw new UsageError(`--${option} goes with --cluster and --server (the classic event connection)`);
    return duration(value, 0, `--${option}`, parseDuration);
  };
  const clusterLeaseMs = classicDuration('cluster-lease');
  if (clusterLeaseMs !== undefined && clusterLeaseMs < 3_000)
    throw new UsageError(
      `--cluster-lease: at least 3s (three renewals of 1 s), got '${values['cluster-lease']}'`,
    );
  const clusterHolderTakeoverMs = classicDuration('cluster-holder-takeover');
  if (
    clusterHolderTakeoverMs !== undefined &&
    (clusterHolderTakeoverMs < 600 || clusterHolderTakeoverMs >= (clusterLeaseMs ?? 5_000))
  )
    throw new UsageError(
      `--cluster-holder-takeover: at least 600ms (three renewals of 200 ms) and below the lease (--cluster-lease, ${(clusterLeaseMs ?? 5_000) / 1000}s), got '${values['cluster-holder-takeover']}'`,
    );
  const server = values.server !== undefined ? parseServerUrl(values.server) : undefined;

  let flow: Flow;
  try {
    flow = await loadFlowFile(file);
  } catch (error) {
    if (error instanceof FlowValidationError) {
      io.stderr(`ringflow run: ${error.message}\n`);
      return ExitCode.FAILURE;
    }
    io.stderr(`ringflow run: cannot read ${file}: ${describeFileError(error)}\n`);
    return ExitCode.FAILURE;
  }
  // Typed before anything starts: `--input maxAttempts=3` must be the number 3, not the text "3".
  // With --demo, the scenario file may give the required inputs the command line leaves out.
  const declared = flow.document.inputs ?? {};
  const check = convertFlowInputs(declared, inputs);
  const problems = check.ok ? [] : check.problems.filter((p) => !(values.demo && p.kind === 'missing'));
  if (problems.length > 0)
    throw new UsageError(
      problems
        .map((p) => (p.kind === 'missing' ? `--input: ${p.message}` : `--input ${p.name}: ${p.message}`))
        .join('\n'),
    );
  const typedInputs = Object.fromEntries(
    Object.entries(inputs).map(([name, value]) => [name, convertInputValue(declared[name]!.type, value)]),
  );
  const waitForStop = io.waitForStop ?? waitForProcessStop;
  if (onServer) {
    const account = listenAccount ? [listenAccount] : [];
    const { runOnServer } = await import('../run/runOnServer.ts');
    return (await runOnServer({
      flow,
      flowFile: file,
      ...(server !== undefined ? { server: { url: server, ...serverAccount! } } : {}),
      ...(listen ? { listen: { ...listen, accounts: account } } : {}),
      ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
      ...(clusterLeaseMs !== undefined ? { clusterLeaseMs } : {}),
      ...(clusterHolderTakeoverMs !== undefined ? { clusterHolderTakeoverMs } : {}),
      ...(clusterReplicas !== undefined ? { clusterReplicas } : {}),
      app: values.app ?? flow.document.name,
      ...(http
        ? {
            http: {
              ...http,
              ...(httpAccount ? { auth: httpAccount } : {}),
            },
          }
        : {}),
      inputs: typedInputs,
      drainMs,
      format,
      io,
      clock,
      waitForStop,
    })) as ExitCode;
  }

  let callers: DemoCaller[];
  if (values.demo) {
    const scenarioFile = file.replace(/\.ya?ml$/, '.test.yaml');
    if (!existsSync(scenarioFile)) {
      io.stderr(
        `ringflow run: --demo takes its callers from ${scenarioFile}, which does not exist; write scenarios there (see packages/testing/README.md) or run without --demo\n`,
      );
      return ExitCode.FAILURE;
    }
    const { loadScenarioFile } = await import('@ringflow/testing');
    const loaded = await loadScenarioFile(scenarioFile);
    if (!loaded.ok) {
      io.stderr(
        `ringflow run: ${scenarioFile} has errors:\n${loaded.diagnostics.map(formatDiagnostic).join('\n')}\n`,
      );
      return ExitCode.FAILURE;
    }
    callers = demoCallersFromSuite(loaded.suite).map((c) => ({
      ...c,
      options: { ...c.options, inputs: { ...c.options.inputs, ...typedInputs } },
    }));
  } else {
    const caller = silentCaller(limitMs);
    callers = [{ ...caller, options: { ...caller.options, inputs: typedInputs } }];
  }
  let stopSignal: (signal: string) => void = () => {};
  const stop = new Promise<string>((resolve) => {
    stopSignal = resolve;
  });
  void waitForStop(() => {}).then(stopSignal);
  const { runDemo } = await import('../run/runDemo.ts');
  await runDemo({ flow, flowFile: file, callers, speed, limitMs, format, io, clock, stop });
  return ExitCode.OK;
}
