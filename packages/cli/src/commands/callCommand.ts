import { parseArgs } from 'node:util';
import type { EventStream } from '@ringflow/client';
import { type Command, UsageError, parseCommandLine } from '../Command.ts';
import type { CommandIo } from '../CommandIo.ts';
import { ExitCode } from '../ExitCode.ts';
import { accountOption } from '../parseAccount.ts';

const HELP = `Usage: ringflow call --server <url> <extension> [actions...] [options]

Places a call into a running 'ringflow simulator' through its driver API (/ringflow/driver),
does the actions in the order given, and prints what happens to the call (answered, media
played, keys received, hung up). After the last action the caller hangs up if the call is
still up; end with --wait to listen longer.

Actions (repeatable, done in order):
  --press <digits>          press keys: 0-9, *, #, A-D (e.g. --press 1 or --press 1234#)
  --wait <duration>         wait, e.g. 500ms, 5s, 1m (a bare number is seconds)
  --talk                    start talking (talk detection, recordings hear speech)
  --silence                 stop talking
  --hangup                  hang up now

Options:
  --server <url>            the simulator, e.g. http://127.0.0.1:8088 (required)
  --user <name:password>    account of the simulator (default demo:demo); as in 'ringflow run'
                            and 'ringflow simulator', --user name --password pw is accepted too
  --from <number>           caller number (default 1000)
  --context <name>          dialplan context the call lands in (default from-callers)
  --app <name>              enter this application directly instead of dialling <extension>
  --language <code>         channel language, e.g. en or fr
  -h, --help                show this help

Example:
  ringflow simulator --port 8088 &
  ringflow call --server http://127.0.0.1:8088 100 --press 1 --wait 5s --press 3

What the call goes through is shown: ringing, each dialplan application it runs (with
--context, or the default from-callers), the application it enters (Stasis), answered, media,
keys, hung up. A call that ends without reaching an application says why (no application of
that name connected, or a dialplan that never sends it to one) and what to do.

Exit codes: 0 the call reached an application (or was answered) and ended; 1 the call ended
without reaching one, the simulator refused or could not be reached, or went away during the
call; 2 wrong command line.
`;

type Action =
  | { readonly kind: 'press'; readonly digits: string }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'talk' | 'silence' | 'hangup' };

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    tokens: true,
    options: {
      server: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      from: { type: 'string' },
      context: { type: 'string' },
      app: { type: 'string' },
      language: { type: 'string' },
      press: { type: 'string', multiple: true },
      wait: { type: 'string', multiple: true },
      talk: { type: 'boolean', multiple: true },
      silence: { type: 'boolean', multiple: true },
      hangup: { type: 'boolean', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** `5s`, `500ms`, `1m`, or a bare number of seconds, in milliseconds. */
export function parseWait(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) throw new UsageError(`--wait: expected a duration such as 500ms, 5s or 1m, got '${text}'`);
  const unit = m[2] ?? 's';
  return Math.round(Number(m[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000));
}

function actionsOf(tokens: ReturnType<typeof parse>['tokens']): Action[] {
  const actions: Action[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'press') {
      const digits = token.value ?? '';
      if (!/^[0-9A-D*#]+$/i.test(digits)) {
        throw new UsageError(`--press: expected keys 0-9, *, #, A-D (e.g. --press 1), got '${digits}'`);
      }
      actions.push({ kind: 'press', digits });
    } else if (token.name === 'wait') actions.push({ kind: 'wait', ms: parseWait(token.value ?? '') });
    else if (token.name === 'talk' || token.name === 'silence' || token.name === 'hangup') {
      actions.push({ kind: token.name });
    }
  }
  return actions;
}

function driverRoot(value: string | undefined): { root: string; ari: string } {
  if (value === undefined) throw new UsageError('--server is required, e.g. --server http://127.0.0.1:8088');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--server: expected an address such as http://127.0.0.1:8088, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--server: expected http:// or https://, got '${url.protocol}'`);
  // The driver sits beside /ari on the same origin, whatever path the user gave.
  return { root: `${url.origin}/ringflow/driver`, ari: `${url.origin}/ari` };
}

/** `ringflow call`: a caller on the simulator from a terminal, through the driver API. */
export const callCommand: Command = {
  name: 'call',
  summary: 'place a call into a running simulator: press keys, wait, talk, hang up',
  help: HELP,
  run,
};

async function run(args: readonly string[], io: CommandIo): Promise<ExitCode> {
  const { values, positionals, tokens } = parseCommandLine(() => parse(args));
  if (values.help) {
    io.stdout(HELP);
    return ExitCode.OK;
  }
  const { root, ari } = driverRoot(values.server);
  const account = accountOption(values.user, values.password);
  const username = account?.username ?? 'demo';
  const password = account?.password ?? 'demo';
  const [extension, ...extra] = positionals;
  if (extension === undefined && values.app === undefined)
    throw new UsageError('give the extension to call, e.g. ringflow call --server <url> 100');
  if (extra.length > 0) throw new UsageError(`one extension at a time; unexpected '${extra[0]}'`);
  const actions = actionsOf(tokens);

  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const driver = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(`${root}${path}`, {
        method,
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CallFailed(
        `cannot reach ${root}: ${cause?.code ?? cause?.message ?? (error as Error).message}; is 'ringflow simulator' running there?`,
      );
    }
    const text = await res.text();
    if (res.status === 401)
      throw new CallFailed(
        `the simulator refused the account '${username}' (401); give --user name:password`,
      );
    if (res.status === 404 && text.includes('No driver operation'))
      throw new CallFailed(`${root} has no driver API; is it a 'ringflow simulator'?`);
    if (res.status >= 400) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {}
      if (values.app !== undefined && /has no event connection/.test(message))
        throw new CallFailed(
          `no application '${values.app}' is connected to the simulator. Run a flow as that application: ringflow run <flow.yaml> --server ${ari.replace(/\/ari$/, '')} --user <name:password> --app ${values.app}`,
        );
      throw new CallFailed(`${method} ${path}: ${res.status} ${message}`);
    }
    return text === '' ? undefined : JSON.parse(text);
  };

  const { createEventStream } = await import('@ringflow/client');
  const started = Date.now();
  const say = (line: string): void =>
    io.stdout(`${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s  ${line}\n`);
  // Watch every event under an application name of our own (subscribeAll), so we see the call
  // whichever application handles it, without taking any application's events away.
  const stream = createEventStream({
    url: ari,
    apps: `ringflow-call-${process.pid}`,
    subscribeAll: true,
    username,
    password,
    stopOnRejection: true,
  });
  let channelId: string | undefined;
  let ended = false;
  /** A hang-up request was told: a server repeats it (the soft request, then the hang-up itself). */
  let hangUpTold = false;
  /** The call entered an application (StasisStart) or was answered: something took it. */
  let reached = false;
  /** The applications the dialplan tried to send the call to and that were not connected. */
  const failedStasis: string[] = [];
  let lastStasisApp: string | undefined;
  /** The last Stasis() the dialplan ran failed (its application was not connected). */
  let lastStasisFailed = false;
  let where: { context?: string; exten?: string } = {};
  /** Set when the event stream closed under us: the simulator went away. */
  let lost: string | undefined;
  let onEnd: () => void = () => {};
  const endedPromise = new Promise<void>((resolve) => {
    onEnd = resolve;
  });
  // Events of the call can arrive before the driver's answer names its channel: hold them until then.
  const early: unknown[] = [];
  const show = (event: unknown): void => {
    const e = event as unknown as Record<string, unknown>;
    const channel = e.channel as
      | { id?: string; state?: string; dialplan?: { context?: string; exten?: string } }
      | undefined;
    const playback = e.playback as { target_uri?: string; media_uri?: string } | undefined;
    const mine =
      channelId !== undefined &&
      (channel?.id === channelId || playback?.target_uri === `channel:${channelId}`);
    if (!mine) return;
    if (channel?.dialplan?.context) where = channel.dialplan;
    switch (e.type) {
      case 'ChannelCreated':
        if (channel?.state === 'Ring' || channel?.state === 'Ringing') say('ringing');
        break;
      case 'ChannelStateChange':
        if (channel?.state === 'Up') reached = true;
        say(
          channel?.state === 'Up'
            ? 'answered'
            : channel?.state === 'Ringing' || channel?.state === 'Ring'
              ? 'ringing'
              : `state ${channel?.state}`,
        );
        break;
      case 'ChannelDialplan': {
        const app = String(e.dialplan_app ?? '');
        const data = String(e.dialplan_app_data ?? '');
        if (app === 'Stasis') {
          lastStasisApp = data.split(',')[0];
          lastStasisFailed = false;
        }
        const at = channel?.dialplan;
        say(`dialplan ${at?.context},${at?.exten}: ${app}(${data})`);
        break;
      }
      case 'ChannelVarset':
        if (e.variable === 'STASISSTATUS' && e.value === 'FAILED' && lastStasisApp !== undefined) {
          lastStasisFailed = true;
          if (!failedStasis.includes(lastStasisApp)) failedStasis.push(lastStasisApp);
        }
        break;
      case 'StasisStart': {
        reached = true;
        const app = lastStasisApp ?? values.app;
        say(app ? `entered the application ${app}` : 'entered an application');
        break;
      }
      case 'PlaybackStarted':
        say(`playing ${String(playback?.media_uri)}`);
        break;
      case 'PlaybackFinished':
        say(`played ${String(playback?.media_uri)}`);
        break;
      case 'ChannelDtmfReceived':
        say(`key ${String(e.digit)} received`);
        break;
      case 'ChannelTalkingStarted':
        say('talking detected');
        break;
      case 'ChannelHangupRequest':
        if (!hangUpTold) say(`hang-up requested (cause ${String(e.cause)})`);
        hangUpTold = true;
        break;
      case 'ChannelDestroyed':
        // A Stasis() that did not fail had the application take the call, answered or not (a
        // dialplan may retry a failed one: the last attempt counts).
        if (lastStasisApp !== undefined && !lastStasisFailed) reached = true;
        say(`hung up: ${String(e.cause_txt ?? '')} (cause ${String(e.cause)})`);
        ended = true;
        onEnd();
        break;
      default:
        break;
    }
  };
  // The simulator going away closes the event stream: say so at once rather than wait out the
  // actions (and a hang-up request nobody can answer).
  const watchStream = (): void => {
    const sub = stream.state$.subscribe((state) => {
      if (lost !== undefined || ended) return;
      if (state.kind === 'reconnecting' || state.kind === 'closed') {
        const why =
          state.kind === 'closed'
            ? (state.error?.message ?? 'closed')
            : 'error' in state.reason
              ? describeCause(state.reason.error)
              : `closed with code ${state.reason.code}`;
        lost = `the simulator at ${ari} went away during the call (its event stream: ${why}); the call's end is unknown`;
        onEnd();
      }
    });
    closers.push(() => sub.unsubscribe());
  };
  const closers: (() => void)[] = [];
  const subscription = stream.events$.subscribe((event) => {
    if (channelId === undefined) early.push(event);
    else show(event);
  });
  try {
    await waitForOpen(stream, ari);
    watchStream();
    const placed = (await driver('POST', '/calls', {
      ...(extension !== undefined ? { to: extension } : {}),
      ...(values.from !== undefined ? { from: values.from } : {}),
      ...(values.context !== undefined ? { context: values.context } : {}),
      ...(values.app !== undefined ? { app: values.app } : {}),
      ...(values.language !== undefined ? { language: values.language } : {}),
    })) as { id: string };
    channelId = placed.id;
    // The driver puts the call straight into a connected application (it refuses any other).
    if (values.app !== undefined) reached = true;
    say(`calling ${extension ?? values.app} (channel ${channelId})`);
    for (const event of early.splice(0)) show(event);
    const path = `/calls/${encodeURIComponent(channelId)}`;
    for (const action of actions) {
      if (lost !== undefined) break;
      if (ended) {
        say(`the call ended; skipping the remaining actions`);
        break;
      }
      switch (action.kind) {
        case 'press':
          say(`pressing ${action.digits}`);
          await driver('POST', `${path}/dtmf`, { digits: action.digits });
          break;
        case 'wait':
          await Promise.race([new Promise((r) => setTimeout(r, action.ms)), endedPromise]);
          break;
        case 'talk':
          say('talking');
          await driver('POST', `${path}/talk`);
          break;
        case 'silence':
          say('silent');
          await driver('DELETE', `${path}/talk`);
          break;
        case 'hangup':
          say('hanging up');
          await driver('DELETE', path);
          await endedPromise;
          break;
      }
    }
    if (lost !== undefined) throw new CallFailed(lost);
    if (!ended) {
      say('hanging up');
      try {
        await driver('DELETE', path);
      } catch (error) {
        // The call may have ended between the last event and our request.
        if (!(error instanceof CallFailed) || !/ 404 /.test(error.message)) throw error;
      }
      await Promise.race([endedPromise, new Promise((r) => setTimeout(r, 5000))]);
    }
    if (lost !== undefined) throw new CallFailed(lost);
    if (!reached) {
      io.stderr(`ringflow call: ${unreached(extension, where, failedStasis, values.context, root)}\n`);
      return ExitCode.FAILURE;
    }
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof CallFailed) {
      io.stderr(`ringflow call: ${error.message}\n`);
      return ExitCode.FAILURE;
    }
    throw error;
  } finally {
    for (const close of closers) close();
    subscription.unsubscribe();
    await stream.close();
  }
}

class CallFailed extends Error {}

/** An error's message with its cause's (`connect ECONNREFUSED ...`), once. */
function describeCause(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}

/**
 * Why a call ended without reaching an application, and what to do: the dialplan sent it to
 * Stasis(<app>) while no application of that name was connected, or never sent it to one.
 */
function unreached(
  extension: string | undefined,
  where: { context?: string; exten?: string },
  failedStasis: readonly string[],
  context: string | undefined,
  driverRoot: string,
): string {
  const server = driverRoot.replace(/\/ringflow\/driver$/, '');
  const place = `context ${where.context ?? context ?? 'from-callers'}, extension ${where.exten ?? extension}`;
  const app = failedStasis[0];
  if (app !== undefined)
    return (
      `nothing answered ${extension}: the dialplan (${place}) sent the call to Stasis(${app}), but no application '${app}' is connected to the simulator, so the dialplan went on and hung up.\n` +
      `Run a flow as that application: ringflow run <flow.yaml> --server ${server} --user <name:password> --app ${app}\n` +
      `or call an application that is connected, without the dialplan: ringflow call --server ${server} --app <name>`
    );
  return (
    `nothing answered ${extension}: the call ended in the dialplan (${place}) without reaching an application (no Stasis).\n` +
    `Send it to one: a dialplan whose [context] has the extension go to Stasis(<app>) (--context picks the context; ringflow simulator --dialplan <extensions.conf>), or call the application directly: ringflow call --server ${server} --app <name>`
  );
}

async function waitForOpen(stream: EventStream, ari: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const sub = stream.state$.subscribe((state) => {
      if (done) return;
      if (state.kind === 'open') {
        done = true;
        resolve();
      } else if (state.kind === 'closed' || state.kind === 'reconnecting') {
        done = true;
        const why =
          state.kind === 'closed'
            ? (state.error?.message ?? 'closed')
            : 'error' in state.reason
              ? state.reason.error.message
              : `closed with code ${state.reason.code}`;
        reject(
          new CallFailed(
            `cannot open the event stream at ${ari}: ${why}; is 'ringflow simulator' running there?`,
          ),
        );
      }
    });
    if (done) queueMicrotask(() => sub.unsubscribe());
  });
}
