import type { Clock } from '@ringflow/client';
import { createFlowCallMachine, type Flow } from '@ringflow/dsl';
import {
  applicationReadiness,
  Campaign,
  type CallWindow,
  type CampaignJournal,
  type CampaignPace,
  type Contact,
  createApplication,
  FileCampaignJournal,
  type JournalEntry,
  type OpsServer,
  type RetryRules,
  startOpsServer,
} from '@ringflow/runtime';
import { pino } from 'pino';
import type { CommandIo } from '../CommandIo.ts';
import { ExitCode } from '../ExitCode.ts';
import type { OutputFormat } from '../OutputFormat.ts';
import { formatLogLine } from '../run/formatLogLine.ts';

export interface CampaignRunOptions {
  readonly flow: Flow;
  readonly contacts: readonly Contact[];
  readonly server: { readonly url: string; readonly username: string; readonly password: string };
  readonly app: string;
  readonly pace: CampaignPace;
  readonly window?: CallWindow;
  readonly retry: RetryRules;
  /** The results file (JSON Lines): read to resume, appended to as the campaign goes. */
  readonly results: string;
  readonly callerId?: string;
  /** Seconds a call rings before it counts as not answered. */
  readonly ringSeconds: number;
  readonly format: OutputFormat;
  readonly io: CommandIo;
  readonly clock: Clock;
  /** Serve /metrics, /healthz and /readyz there while the campaign runs. */
  readonly http?: {
    readonly host: string;
    readonly port: number;
    readonly auth?: { readonly username: string; readonly password: string };
  };
  /** Resolves with the first stop signal; `onAgain` is called for each later one. */
  readonly waitForStop: (onAgain: () => void) => Promise<string>;
}

/** Prints each result as it is written, then writes it to the results file. */
class TellingJournal implements CampaignJournal {
  constructor(
    private readonly file: FileCampaignJournal,
    private readonly tell: (entry: JournalEntry) => void,
  ) {}

  entries(): readonly JournalEntry[] {
    return this.file.entries();
  }

  append(entry: JournalEntry): void {
    this.file.append(entry);
    this.tell(entry);
  }
}

function describe(entry: JournalEntry, clock: Clock): string {
  const at = new Date(clock.now()).toISOString().slice(11, 19);
  if (entry.type === 'dialling') return `${at}  ${entry.contact}  ☎ dialling (attempt ${entry.attempt})\n`;
  const next =
    entry.retryAt !== undefined
      ? `, again at ${new Date(entry.retryAt).toISOString().replace('.000Z', 'Z')}`
      : ', done';
  const cause = entry.cause !== undefined ? ` (cause ${entry.cause})` : '';
  return `${at}  ${entry.contact}  ■ ${entry.outcome}${cause}${next}\n`;
}

/**
 * Runs a campaign against a server: the flow as the application `app`, each contact's call
 * placed into it (its inputs from the contact's columns), at the pace and in the window given,
 * the results written to `results` as they come. SIGINT/SIGTERM stop dialling; the calls in
 * progress finish, then it exits (run it again on the same results to resume).
 */
export async function runCampaign(options: CampaignRunOptions): Promise<ExitCode> {
  const { io, clock } = options;
  const text = options.format === 'text';
  const logger = text
    ? pino({ level: 'warn' }, { write: (s: string) => io.stderr(formatLogLine(s)) })
    : pino({ level: 'info' }, { write: (s: string) => io.stdout(s) });
  const byId = new Map(options.contacts.map((c) => [c.id, c]));
  const app = createApplication({
    servers: [
      { url: options.server.url, username: options.server.username, password: options.server.password },
    ],
    apps: [options.app],
    // Each call carries its contact's id as its Stasis argument: the flow gets that contact's inputs.
    call: createFlowCallMachine(options.flow, {
      inputs: (call) => byId.get(String(call.args[0]))?.inputs ?? {},
    }),
    clock,
    logger,
  });
  let journal: FileCampaignJournal;
  try {
    journal = new FileCampaignJournal(options.results);
  } catch (error) {
    io.stderr(`ringflow campaign: ${(error as Error).message}\n`);
    return ExitCode.FAILURE;
  }
  const tell = (entry: JournalEntry) =>
    text ? io.stdout(describe(entry, clock)) : logger.info({ ...entry, msg: `campaign ${entry.type}` });
  const campaign = new Campaign({
    dialler: app,
    contacts: options.contacts,
    pace: options.pace,
    ...(options.window ? { window: options.window } : {}),
    retry: options.retry,
    journal: new TellingJournal(journal, tell),
    originate: {
      app: options.app,
      timeout: options.ringSeconds,
      ...(options.callerId !== undefined ? { callerId: options.callerId } : {}),
    },
    clock,
    metrics: { registry: app.metrics.registry, campaign: options.flow.document.name },
  });
  // Started before connecting, so /readyz says 503 (and why) while the server is not there yet.
  let ops: OpsServer | undefined;
  if (options.http) {
    try {
      ops = await startOpsServer({
        ...options.http,
        metrics: () => app.metrics.toPrometheus(),
        readiness: () => applicationReadiness(app),
      });
    } catch (error) {
      const { host, port } = options.http;
      io.stderr(`ringflow campaign: --http: cannot listen on ${host}:${port}: ${(error as Error).message}\n`);
      return ExitCode.FAILURE;
    }
    io.stderr(
      `ringflow campaign: metrics on ${ops.url}/metrics, probes on ${ops.url}/healthz and ${ops.url}/readyz\n`,
    );
  }
  try {
    await app.start();
  } catch (error) {
    io.stderr(`ringflow campaign: ${(error as Error).message}\n`);
    await app.stop().catch(() => {});
    await ops?.close();
    return ExitCode.FAILURE;
  }
  const resumed = journal.entries().length > 0;
  io.stderr(
    `ringflow campaign: ${options.contacts.length} contacts into ${options.flow.document.name} on ${options.server.url} (application ${options.app}), ${options.pace.perSecond}/s, ${options.pace.atOnce} at once; results in ${options.results}${resumed ? ' (resumed)' : ''}\n`,
  );
  let stopped = false;
  void options
    .waitForStop(() => process.exit(ExitCode.FAILURE))
    .then((signal) => {
      stopped = true;
      io.stderr(`ringflow campaign: ${signal}: no new calls; waiting for the calls in progress\n`);
      campaign.stop();
    });
  const summary = await campaign.run();
  await app.stop();
  await ops?.close();
  const outcomes = Object.entries(summary.outcomes)
    .map(([outcome, n]) => `${n} ${outcome}`)
    .join(', ');
  const line = `${summary.done} of ${summary.contacts} contacts done${outcomes ? ` (${outcomes})` : ''}, ${summary.callsPlaced} calls placed${stopped ? `; stopped: run again with --results ${options.results} to go on` : ''}`;
  if (text) io.stdout(`\nSummary: ${line}\n`);
  else logger.info({ ...summary, msg: 'campaign summary' });
  return ExitCode.OK;
}
