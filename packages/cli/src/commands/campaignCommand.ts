import { parseArgs } from 'node:util';
import { type Command, parseCommandLine, UsageError } from '../Command.ts';
import { type CommandIo, waitForProcessStop } from '../CommandIo.ts';
import { ExitCode } from '../ExitCode.ts';
import { outputFormat } from '../OutputFormat.ts';
import { accountOption } from '../parseAccount.ts';
import { parseHttpAddress } from '../parseHttpAddress.ts';
import { parseServerUrl } from '../parseServerUrl.ts';

const HELP = `Usage: ringflow campaign <flow.yaml> --contacts <list.csv|list.json> --server <url> --user <name:password> [options]

Dials a list of contacts into a flow (an outbound campaign): each contact's call is placed on the
server and, once answered, runs the flow with the contact's columns as its inputs. At a pace, in
a calling window in each contact's time zone, retrying by outcome; each attempt and its outcome
are written to the results file as they happen.

  ringflow campaign flows/outbound-message.yaml --contacts contacts.csv --server http://127.0.0.1:8088 \\
    --user asterisk:secret --endpoint 'PJSIP/{number}' --rate 2 --at-once 10 \\
    --window mon-fri,09:00-20:00 --timezone Europe/Paris --retry busy=3x10m --retry noAnswer=2x30m

The contact list: CSV with a header line, or JSON (an array of objects). Columns: id (unique;
default the number or endpoint), endpoint (PJSIP/5550117) or number (with --endpoint), timezone
(IANA, for the window; default --timezone), and the flow's inputs. Every problem of the list is
told with its line and column before anything is dialled.

Outcomes: busy, noAnswer, failed (never answered, by the hangup cause); answered, or what the
flow's final state says as output: { outcome: machine } (e.g. after detectMachine).

Stop with SIGINT/SIGTERM (Ctrl-C): no new calls, the calls in progress finish. Run the same command
again with the same --results to go on: contacts done stay done, retries keep their times, and a
contact whose call was in progress when the campaign was killed is not called again (unknown).

Options:
  --contacts <file>         the contact list (.csv or .json)
  --server <url>            the server's HTTP address (http://host:8088; /ari is added when missing)
  --user <name:password>    an ARI user of the server (ari.conf)
  --app <name>              the application the calls enter (default: the flow's name)
  --results <file>          where the results go, JSON Lines (default: <contacts>.results.jsonl)
  --endpoint <template>     the endpoint of a contact with a number: PJSIP/{number}
  --rate <n>                new calls a second at most (default 1)
  --at-once <n>             calls up at the same time at most (default 5)
  --window <days,hh:mm-hh:mm>  when contacts may be called, in their time zone (default: any time)
  --timezone <zone>         the time zone of contacts that name none (default UTC)
  --retry <outcome=NxWAIT>  try again after outcome, N more times, WAIT apart: busy=3x10m; repeat
  --ring <duration>         how long a call rings before it counts as noAnswer (default 30s)
  --caller-id <text>        the caller id shown to contacts ("Acme <100>")
  --input <name=value>      a flow input for every contact (a column of the same name wins)
  --format <text|json>      text: one line per attempt; json: the runtime's log with each result
  --http <[host:]port>      serve /metrics (Prometheus: the campaign's contacts by outcome, attempts,
                            calls in flight, and the runtime's), /healthz and /readyz there while
                            it runs; a bare port binds to 127.0.0.1
  --http-user <name:password>  with --http: require these HTTP Basic credentials
  -h, --help                show this help

Exit codes:
  0  every contact is done, or the campaign was stopped and its calls ended
  1  the flow or the contact list has errors, or the server could not be reached
  2  wrong command line
`;

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      contacts: { type: 'string' },
      server: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      app: { type: 'string' },
      results: { type: 'string' },
      endpoint: { type: 'string' },
      rate: { type: 'string' },
      'at-once': { type: 'string' },
      window: { type: 'string' },
      timezone: { type: 'string' },
      retry: { type: 'string', multiple: true },
      ring: { type: 'string' },
      'caller-id': { type: 'string' },
      input: { type: 'string', multiple: true },
      format: { type: 'string' },
      http: { type: 'string' },
      'http-user': { type: 'string' },
      'http-password': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function positiveNumber(
  value: string | undefined,
  fallback: number,
  option: string,
  integer = false,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(n > 0) || (integer && !Number.isInteger(n)))
    throw new UsageError(`${option}: expected a ${integer ? 'whole ' : ''}number above 0, got '${value}'`);
  return n;
}

async function run(args: readonly string[], io: CommandIo): Promise<ExitCode> {
  const { values, positionals } = parseCommandLine(() => parse(args));
  if (values.help) {
    io.stdout(HELP);
    return ExitCode.OK;
  }
  const [file, ...extra] = positionals;
  if (file === undefined)
    throw new UsageError(
      'give a flow file, e.g. ringflow campaign flows/outbound.yaml --contacts contacts.csv ...',
    );
  if (extra.length > 0) throw new UsageError(`one flow at a time; unexpected '${extra[0]}'`);
  if (values.contacts === undefined)
    throw new UsageError('--contacts: give the contact list (.csv or .json)');
  if (values.server === undefined)
    throw new UsageError(
      '--server: give the server to call from (http://127.0.0.1:8088) and --user name:password',
    );
  const account = accountOption(values.user, values.password);
  if (account === undefined)
    throw new UsageError('--server needs --user name:password of an ARI user (ari.conf)');
  const server = parseServerUrl(values.server);
  const http = values.http === undefined ? undefined : parseHttpAddress(values.http);
  const httpAccount = accountOption(values['http-user'], values['http-password'], '--http-user');
  if (httpAccount !== undefined && http === undefined) throw new UsageError('--http-user goes with --http');
  const format = outputFormat(values.format, io);
  const { convertFlowInputs, describeFileError, FlowValidationError, loadFlowFile, parseDuration } =
    await import('@ringflow/dsl');
  const { isTimeZone } = await import('@ringflow/runtime');
  const { systemClock } = await import('@ringflow/client');
  const { parseRetries, parseWindow } = await import('../campaign/campaignSettings.ts');
  const timezone = values.timezone;
  if (timezone !== undefined && !isTimeZone(timezone))
    throw new UsageError(
      `--timezone: '${timezone}' is not a time zone name (Europe/Paris, America/Chicago, UTC)`,
    );
  const window = values.window === undefined ? undefined : parseWindow(values.window, timezone);
  if (window === undefined && timezone !== undefined) throw new UsageError('--timezone goes with --window');
  const retry = parseRetries(values.retry ?? [], parseDuration);
  const ringMs = values.ring === undefined ? 30_000 : parseDuration(values.ring);
  if (ringMs === undefined || ringMs < 1000)
    throw new UsageError(`--ring: expected a duration of a second or more such as 30s, got '${values.ring}'`);
  const pace = {
    perSecond: positiveNumber(values.rate, 1, '--rate'),
    atOnce: positiveNumber(values['at-once'], 5, '--at-once', true),
  };
  const inputs: Record<string, string> = {};
  for (const item of values.input ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`--input: expected name=value, got '${item}'`);
    inputs[item.slice(0, eq)] = item.slice(eq + 1);
  }

  let flow: Awaited<ReturnType<typeof loadFlowFile>>;
  try {
    flow = await loadFlowFile(file);
  } catch (error) {
    io.stderr(
      `ringflow campaign: ${error instanceof FlowValidationError ? error.message : `cannot read ${file}: ${describeFileError(error)}`}\n`,
    );
    return ExitCode.FAILURE;
  }
  const declared = flow.document.inputs ?? {};
  const { ContactListError, readContacts } = await import('../campaign/readContacts.ts');
  let contacts: Awaited<ReturnType<typeof readContacts>>;
  try {
    contacts = await readContacts(values.contacts, {
      inputs: Object.keys(declared),
      convert: (given) => {
        const result = convertFlowInputs(declared, { ...inputs, ...given });
        return result.ok
          ? { ok: true, value: result.inputs }
          : { ok: false, problems: result.problems.map((p) => p.message) };
      },
      ...(values.endpoint !== undefined ? { endpointTemplate: values.endpoint } : {}),
      isTimeZone,
    });
  } catch (error) {
    if (error instanceof ContactListError) {
      io.stderr(
        `ringflow campaign: the contact list has ${error.problems.length} problem(s):\n${error.message}\n`,
      );
      return ExitCode.FAILURE;
    }
    io.stderr(`ringflow campaign: cannot read ${values.contacts}: ${describeFileError(error)}\n`);
    return ExitCode.FAILURE;
  }
  const { runCampaign } = await import('../campaign/runCampaign.ts');
  return runCampaign({
    flow,
    contacts,
    server: { url: server, ...account },
    app: values.app ?? flow.document.name,
    pace,
    ...(window ? { window } : {}),
    retry,
    results: values.results ?? `${values.contacts.replace(/\.(csv|json)$/i, '')}.results.jsonl`,
    ...(values['caller-id'] !== undefined ? { callerId: values['caller-id'] } : {}),
    ringSeconds: Math.round(ringMs / 1000),
    ...(http ? { http: { ...http, ...(httpAccount ? { auth: httpAccount } : {}) } } : {}),
    format,
    io,
    clock: systemClock,
    waitForStop: io.waitForStop ?? waitForProcessStop,
  });
}

/** `ringflow campaign`: dials a list of contacts into a flow on a server. */
export const campaignCommand: Command = {
  name: 'campaign',
  summary: 'dial a list of contacts into a flow (an outbound campaign: pace, window, retries, results)',
  help: HELP,
  run,
};
