import { parseArgs } from 'node:util';
import type { Clock } from '@ringflow/client';
import { type Command, parseCommandLine, UsageError } from '../Command.ts';
import { type CommandIo, waitForProcessStop } from '../CommandIo.ts';
import { ExitCode } from '../ExitCode.ts';
import { accountOption, parseAccount } from '../parseAccount.ts';
import { parsePort } from '../parsePort.ts';
import type {
  OutboundConnectionConfig,
  OutboundWebSockets,
  SimulatedServer,
  Simulator,
  WireServer,
  WireUser,
} from '../simulatorPackage.ts';

/** A simulator core the command can serve and then shut down. */
export interface RunningCore extends SimulatedServer {
  close(): void | Promise<void>;
}

/** What the command asks of whoever builds the core. */
export interface CoreOptions {
  readonly clock: Clock;
  /** Path of an `extensions.conf` to use instead of the simulator's default dialplan. */
  readonly dialplanFile?: string;
  /** A sounds directory (`<dir>/<language>/<name>.<format>`) whose files the server can play. */
  readonly soundsDir?: string;
  /** The accounts the wire server accepts: also the `res_ari/user` dynamic configuration objects. */
  readonly users?: readonly WireUser[];
  /** The name the published description gives the server resource (`core` unless `asterisk`). */
  readonly serverResource?: 'core' | 'asterisk';
  /** The endpoints that exist, each with its far-end behaviour written as text (`busy`, `answer:3`). */
  readonly endpoints?: Readonly<Record<string, string>>;
  /** Receives one line per diagnostic (dialplan warnings...). */
  readonly warn: (line: string) => void;
}

export type CreateCore = (options: CoreOptions) => RunningCore | Promise<RunningCore>;

const HELP = `Usage: ringflow simulator [options]

Runs the simulated ARI server over HTTP and WebSocket until it gets SIGINT (Ctrl-C) or SIGTERM.
When it is ready it prints exactly one line on stdout:

  listening on http://127.0.0.1:8088/ari

Everything else (dialplan warnings, errors) goes to stderr.

Options:
  --port <n>                         port to listen on (default 8088; 0 picks a free port,
                                     and the line above shows which)
  --host <address>                   address to listen on (default 127.0.0.1, loopback only)
  --user <name:password>             an account with full access; repeat for more
  --read-only-user <name:password>   an account that may only read (GET); repeat for more
  --dialplan <file>                  an extensions.conf to run channels through (default: the
                                     simulator's own, with the demo and traced contexts)
  --sounds <dir>                     your prompts, beside the core sounds: <dir>/<language>/<name>.<format>
                                     (en/acme/welcome.wav is sound:acme/welcome); durations are read
                                     from the files (wav, gsm, ulaw, alaw, slin, sln16, g722, g729)
  --endpoint <tech/resource[=behaviour]>  an endpoint that can be dialled (PJSIP/alice), and
                                     what its far end does: answer (default, after 1 s),
                                     answer:<seconds>, noAnswer, busy, reject, unreachable, or
                                     several comma separated for successive calls (busy,answer);
                                     repeat for more. Any other endpoint fails as on a real
                                     server (500 Allocation failed)
  --server-resource <core|asterisk>  the name /api-docs/ gives the server-level resource:
                                     core (the specification's, default) or asterisk (a real
                                     server's, for clients written for one); both /core/... and
                                     /asterisk/... paths are served either way
  --outbound <ws-uri>                also dial an application there, as a real server's outbound
                                     WebSocket does (websocket_client.conf uri)
  --outbound-app <name>              with --outbound: an application it carries (ari.conf apps);
                                     repeat for more
  --outbound-mode <per_call|persistent>  one connection per call (default), or one for all
  --outbound-user <name:password>    with --outbound: Basic credentials sent in the handshake
  -h, --help                         show this help

Without any --user or --read-only-user, one account demo:demo (full access) is created.
Accounts are name:password, as in 'ringflow run' and 'ringflow call'; with one --user,
--user name --password pw is accepted too.

Exit codes:
  0  stopped by SIGINT or SIGTERM, after closing every connection
  1  could not start (port in use, unreadable or invalid dialplan) or stopped by a second signal
  2  wrong command line

Example:
  ringflow simulator --port 8088 --dialplan extensions.conf
  ringflow simulator --endpoint PJSIP/operator=answer:3 --endpoint PJSIP/customer=busy,answer
  curl -u demo:demo http://127.0.0.1:8088/ari/asterisk/ping
`;

/**
 * `ringflow simulator`: the simulated server on a port, for demos and for applications under
 * development. `createCore` builds the core (tests pass a fake one).
 *
 * @example
 * const command = createSimulatorCommand(createDefaultCore);
 * await command.run(['--port', '0'], { stdout, stderr }); // prints "listening on http://127.0.0.1:40123/ari"
 */
export function createSimulatorCommand(createCore: CreateCore): Command {
  return {
    name: 'simulator',
    summary: 'run the simulated ARI server over HTTP and WebSocket',
    help: HELP,
    run: (args, io) => runSimulator(args, io, createCore),
  };
}

interface SimulatorArgs {
  readonly help: boolean;
  readonly port: number;
  readonly host: string;
  readonly users: WireUser[];
  readonly dialplan?: string;
  readonly sounds?: string;
  readonly serverResource?: 'core' | 'asterisk';
  readonly endpoints: Record<string, string>;
}

/** The --user accounts; `--password` (the alias form) pairs with a single `--user name`. */
function fullAccess(users: readonly string[], password: string | undefined): WireUser[] {
  if (password === undefined) return users.map((u) => parseAccount(u, '--user'));
  if (users.length !== 1)
    throw new UsageError('--password goes with one --user; give several accounts as --user name:password');
  return [accountOption(users[0], password)!];
}

function readArgs(args: readonly string[]): SimulatorArgs {
  const { values } = parseCommandLine(() => parse(args));
  const users: WireUser[] = [
    ...fullAccess(values.user ?? [], values.password),
    ...(values['read-only-user'] ?? []).map((u) => ({
      ...parseAccount(u, '--read-only-user'),
      readOnly: true,
    })),
  ];
  const names = users.map((u) => u.username);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated !== undefined)
    throw new UsageError(`the account '${repeated}' is given twice; give each name once`);
  if (values.host !== undefined && values.host.trim() === '')
    throw new UsageError('--host: expected an address');
  const endpoints: Record<string, string> = {};
  for (const text of values.endpoint ?? []) {
    const [endpoint = '', behaviour = 'answer'] = text.split('=', 2);
    if (!/^[^/\s=]+\/[^/\s=]+$/.test(endpoint))
      throw new UsageError(
        `--endpoint: expected tech/resource[=behaviour] such as PJSIP/alice=busy, got '${text}'`,
      );
    if (endpoint in endpoints) throw new UsageError(`--endpoint: '${endpoint}' is given twice`);
    endpoints[endpoint] = behaviour;
  }
  const serverResource = values['server-resource'];
  if (serverResource !== undefined && serverResource !== 'core' && serverResource !== 'asterisk')
    throw new UsageError(`--server-resource: expected core or asterisk, got '${serverResource}'`);
  return {
    help: values.help === true,
    port: values.port === undefined ? 8088 : parsePort(values.port, '--port'),
    host: values.host ?? '127.0.0.1',
    users: users.length > 0 ? users : [{ username: 'demo', password: 'demo' }],
    ...(values.dialplan !== undefined ? { dialplan: values.dialplan } : {}),
    ...(values.sounds !== undefined ? { sounds: values.sounds } : {}),
    ...(serverResource !== undefined ? { serverResource } : {}),
    endpoints,
  };
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      user: { type: 'string', multiple: true },
      password: { type: 'string' },
      'read-only-user': { type: 'string', multiple: true },
      dialplan: { type: 'string' },
      sounds: { type: 'string' },
      'server-resource': { type: 'string' },
      endpoint: { type: 'string', multiple: true },
      outbound: { type: 'string' },
      'outbound-app': { type: 'string', multiple: true },
      'outbound-mode': { type: 'string' },
      'outbound-user': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function runSimulator(
  args: readonly string[],
  io: CommandIo,
  createCore: CreateCore,
): Promise<ExitCode> {
  const options = readArgs(args);
  if (options.help) {
    io.stdout(HELP);
    return ExitCode.OK;
  }
  const outboundConfig = outboundConnection(args);
  // Listen for stop signals before anything starts: whoever saw the "listening" line may signal
  // at once, and a signal during start-up must still end in an orderly shutdown.
  let forced: (code: ExitCode) => void = () => {};
  const secondSignal = new Promise<ExitCode>((resolve) => {
    forced = resolve;
  });
  const stopRequested = (io.waitForStop ?? waitForProcessStop)(() => {
    io.stderr('ringflow simulator: second stop signal, exiting without waiting\n');
    forced(ExitCode.FAILURE);
  });
  const fail = (message: string): ExitCode => {
    io.stderr(`ringflow simulator: ${message}\n`);
    return ExitCode.FAILURE;
  };

  // Loaded here, not at the top: `ringflow --help` and the other commands never load the simulator.
  const [{ systemClock }, { startOutboundWebSockets, startWireServer }] = await Promise.all([
    import('@ringflow/client'),
    import('../simulatorPackage.ts'),
  ]);
  let core: RunningCore;
  try {
    core = await createCore({
      clock: systemClock,
      ...(options.dialplan !== undefined ? { dialplanFile: options.dialplan } : {}),
      ...(options.sounds !== undefined ? { soundsDir: options.sounds } : {}),
      users: options.users,
      ...(options.serverResource !== undefined ? { serverResource: options.serverResource } : {}),
      endpoints: options.endpoints,
      warn: (line) => io.stderr(`${line}\n`),
    });
  } catch (error) {
    return fail((error as Error).message);
  }

  let wire: WireServer;
  try {
    wire = await startWireServer(core, {
      users: options.users,
      host: options.host,
      port: options.port,
      clock: systemClock,
      // The driver API (/ringflow/driver/...) that `ringflow call` and the console use.
      ...(isSimulator(core) ? { driver: core.driver } : {}),
      onError: (error) => io.stderr(`ringflow simulator: internal error: ${describe(error)}\n`),
    });
  } catch (error) {
    await core.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      return fail(
        `port ${options.port} on ${options.host} is in use; choose another with --port (0 picks a free one)`,
      );
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      return fail(`cannot listen on '${options.host}': not an address of this machine; try --host 127.0.0.1`);
    }
    return fail(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
  }

  let outbound: OutboundWebSockets | undefined;
  if (outboundConfig) {
    if (!isSimulator(core)) {
      await wire.close();
      await core.close();
      return fail('--outbound needs the full simulator core');
    }
    outbound = startOutboundWebSockets(core, {
      connections: [outboundConfig],
      log: (level, message) => io.stderr(`ringflow simulator: ${level}: ${message}\n`),
    });
    io.stderr(
      `ringflow simulator: dialling ${outboundConfig.uri} (${outboundConfig.connectionType}) for ${outboundConfig.apps.join(',')}\n`,
    );
  }
  io.stdout(`listening on ${wire.url}\n`);
  await stopRequested;
  const closed = (async () => {
    if (outbound) {
      io.stderr(
        `ringflow simulator: outbound connections opened: ${outbound.opened.perCall} per call, ${outbound.opened.persistent} persistent; calls that could not reach the application: ${outbound.failedCalls}\n`,
      );
      await outbound.close();
    }
    await wire.close();
    await core.close();
    return ExitCode.OK;
  })();
  return Promise.race([closed, secondSignal]);
}

/** The outbound connection the command line asks for, or undefined without --outbound. */
function outboundConnection(args: readonly string[]): OutboundConnectionConfig | undefined {
  const { values } = parseCommandLine(() => parse(args));
  if (values.outbound === undefined) {
    for (const option of ['outbound-app', 'outbound-mode', 'outbound-user'] as const)
      if (values[option] !== undefined) throw new UsageError(`--${option} goes with --outbound`);
    return undefined;
  }
  if (!/^wss?:\/\//.test(values.outbound))
    throw new UsageError(`--outbound: expected a ws:// or wss:// address, got '${values.outbound}'`);
  const apps = values['outbound-app'] ?? [];
  if (apps.length === 0)
    throw new UsageError('--outbound needs --outbound-app <name> (the Stasis application)');
  const mode = values['outbound-mode'] ?? 'per_call';
  if (mode !== 'per_call' && mode !== 'persistent')
    throw new UsageError(`--outbound-mode: expected per_call or persistent, got '${mode}'`);
  const account =
    values['outbound-user'] === undefined
      ? undefined
      : parseAccount(values['outbound-user'], '--outbound-user');
  return {
    connectionType: mode === 'per_call' ? 'per_call_config' : 'persistent',
    uri: values.outbound,
    apps,
    ...(account ? { username: account.username, password: account.password } : {}),
  };
}

function isSimulator(core: RunningCore): core is RunningCore & Simulator {
  return typeof (core as Partial<Simulator>).servePerCall === 'function';
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
