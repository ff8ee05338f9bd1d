import type { StepFailure } from '@ringflow/runtime';

/** What every timeline entry has: when (virtual ms since the scenario started) and whose it is. */
interface Entry {
  readonly at: number;
  /** The scenario call it belongs to (by name), when it belongs to one. */
  readonly call?: string;
}

/** A REST request a flow made, with what the server answered. */
export interface RecordedAction extends Entry {
  readonly kind: 'action';
  readonly method: string;
  /** Below the interface root: `/channels/c1/play`. */
  readonly path: string;
  /** `resource.name` of the interface (`channels.play`), when recognised. */
  readonly operation?: string;
  /** Path, query and body parameters together (body `variables` stay an object). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** HTTP status of the reply, once it came. */
  status?: number;
}

/** An event the server sent to the flow's application. */
export interface RecordedEvent extends Entry {
  readonly kind: 'event';
  readonly type: string;
  readonly event: Readonly<Record<string, unknown>>;
  /** Put there by the test (`inject`), not raised by the simulated server. */
  readonly injected: boolean;
}

/** The flow entered a state. */
export interface RecordedState extends Entry {
  readonly kind: 'state';
  readonly state: string;
  readonly from?: string;
}

/** What the test did as the caller or the world (pressed keys, hung up, waited...), and the end. */
export interface RecordedNote extends Entry {
  readonly kind: 'caller' | 'end';
  readonly text: string;
}

/** A step of a call's flow failed (as the flow reported it to the runtime). */
export interface RecordedFailure extends Entry {
  readonly kind: 'failure';
  readonly failure: StepFailure;
}

/**
 * A step of a call's flow ended with an outcome worth seeing (not a plain `done`): a dial
 * `busy`, a gather `noInput`, a menu's `choice`, or a menu's own no-input / no-match (`noInput`,
 * `noMatch` with the count so far) before it asks again.
 */
export interface RecordedOutcome extends Entry {
  readonly kind: 'outcome';
  readonly state: string;
  readonly step: string;
  readonly outcome: string;
  /** The outcome's data worth a glance (`digits=12`, `cause=17`, `count=2`). */
  readonly detail: string;
}

/**
 * A webhook request of a flow (an `http` step, a webhook tool) to the scenario's fake HTTP
 * (`http:`): `asked` when sent, then how it ended: answered (with its status), unreachable,
 * aborted (the flow stopped waiting: its timeout, the call's end), or unmatched (nothing in the
 * scenario answers it).
 */
export interface RecordedWebhook extends Entry {
  readonly kind: 'webhook';
  readonly what: 'asked' | 'answered' | 'unreachable' | 'aborted' | 'unmatched';
  readonly method: string;
  readonly url: string;
  /** The request's body (asked), as sent. */
  readonly body?: string;
  /** The answer's status (answered). */
  readonly status?: number;
}

export type TimelineEntry =
  | RecordedWebhook
  | RecordedAction
  | RecordedEvent
  | RecordedState
  | RecordedNote
  | RecordedFailure
  | RecordedOutcome;

/**
 * A step failure in one line: what failed where, what the server said, what the flow did next.
 * @example formatFailure(f) // 'conference failed (moderator, step 2, flows/conference.yaml:112:9): bridges.createWithId answered 409 "Bridge ... exists" → the flow's on.error: apologise'
 */
export function formatFailure(f: StepFailure): string {
  const what =
    f.operation !== undefined && f.status !== undefined
      ? `${f.operation} answered ${f.status}${f.serverMessage ? ` "${f.serverMessage}"` : ''}`
      : f.message;
  return `${f.step} failed (${f.state}, step ${f.index + 1}${f.at ? `, ${f.at}` : ''}): ${what} → ${f.next}`;
}

/**
 * Formats a virtual time offset as `+mm:ss.mmm`.
 * @example formatOffset(3200) // '+00:03.200'
 */
export function formatOffset(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  const millis = Math.round(ms % 1000);
  return `+${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.${String(millis).padStart(3, '0')}`;
}

function shortValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The fields of an event worth a glance, by type (everything else is in the full event). */
function eventDetails(event: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const add = (name: string, value: unknown) => {
    if (value !== undefined && value !== '') parts.push(`${name}=${shortValue(value)}`);
  };
  const channel = event.channel as { id?: string; state?: string } | undefined;
  add('channel', channel?.id);
  add('digit', event.digit);
  const playback = event.playback as { id?: string; media_uri?: string; state?: string } | undefined;
  if (playback) {
    add('playback', playback.id);
    add('media', playback.media_uri);
  }
  const recording = event.recording as { name?: string; duration?: number } | undefined;
  if (recording) {
    add('recording', recording.name);
    add('duration', recording.duration);
  }
  add('eventname', event.eventname);
  add('dialstatus', event.dialstatus);
  if (event.type === 'ChannelStateChange') add('state', channel?.state);
  add('cause', event.cause_txt ?? event.cause);
  const bridge = event.bridge as { id?: string } | undefined;
  add('bridge', bridge?.id);
  add('variable', event.variable);
  add('value', event.value);
  return parts.join(' ');
}

function actionDetails(action: RecordedAction): string {
  const query = Object.entries(action.query).map(([k, v]) => `${k}=${shortValue(v)}`);
  const body = action.body === undefined ? [] : [`body=${shortValue(action.body)}`];
  const status = action.status === undefined ? [] : action.status >= 300 ? [`=> ${action.status}`] : [];
  return [...query, ...body, ...status].join(' ');
}

/**
 * One line per entry, with its virtual time:
 * `+00:03.200  → POST /channels/c1/play media=sound:hello-world`. When the entries belong to
 * several calls, each line says whose it is: `+00:03.200  [member]    → POST ...`.
 *
 * @example console.log(formatTimeline(call.timeline()));
 */
export function formatTimeline(entries: readonly TimelineEntry[]): string {
  const calls = [...new Set(entries.flatMap((e) => (e.call === undefined ? [] : [e.call])))];
  const width = calls.length > 1 ? Math.max(...calls.map((c) => c.length)) + 2 : 0;
  const label = (e: TimelineEntry) =>
    width === 0 ? '' : `${(e.call === undefined ? '' : `[${e.call}]`).padEnd(width)}  `;
  return entries.map((e) => `${formatOffset(e.at)}  ${label(e)}${describeEntry(e)}`.trimEnd()).join('\n');
}

function describeEntry(e: TimelineEntry): string {
  switch (e.kind) {
    case 'action':
      return `→ ${e.method} ${e.path} ${actionDetails(e)}`;
    case 'event':
      return `← ${e.type}${e.injected ? ' (injected)' : ''} ${eventDetails(e.event)}`;
    case 'state':
      return `◆ state ${e.state}`;
    case 'caller':
      return `☎ ${e.text}`;
    case 'end':
      return `■ ${e.text}`;
    case 'failure':
      return `✗ ${formatFailure(e.failure)}`;
    case 'outcome':
      return `◇ ${e.step} → ${e.outcome}${e.detail ? ` ${e.detail}` : ''}`;
    case 'webhook':
      return describeWebhook(e);
    default:
      return assertNever(e);
  }
}

function describeWebhook(e: RecordedWebhook): string {
  const request = `${e.method} ${e.url}`;
  switch (e.what) {
    case 'asked':
      return `⇢ ${request}${e.body === undefined ? '' : ` body=${shortValue(e.body)}`}`;
    case 'answered':
      return `⇠ ${request} => ${e.status}`;
    case 'unreachable':
      return `⇠ ${request} unreachable`;
    case 'aborted':
      return `⇠ ${request} aborted by the flow before its answer`;
    case 'unmatched':
      return `✗ ${request}: nothing in the scenario's http: answers it`;
    default:
      return assertNever(e.what);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected timeline entry ${JSON.stringify(value)}`);
}
