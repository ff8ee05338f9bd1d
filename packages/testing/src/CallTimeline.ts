/** A REST request the flow made, with what the server answered. */
export interface RecordedAction {
  readonly kind: 'action';
  /** Virtual milliseconds since the call was placed. */
  readonly at: number;
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
export interface RecordedEvent {
  readonly kind: 'event';
  readonly at: number;
  readonly type: string;
  readonly event: Readonly<Record<string, unknown>>;
  /** Put there by the test (`inject`), not raised by the simulated server. */
  readonly injected: boolean;
}

/** The flow entered a state. */
export interface RecordedState {
  readonly kind: 'state';
  readonly at: number;
  readonly state: string;
  readonly from?: string;
}

/** What the test did as the caller or the world (pressed keys, hung up, waited...), and the end. */
export interface RecordedNote {
  readonly kind: 'caller' | 'end';
  readonly at: number;
  readonly text: string;
}

export type TimelineEntry = RecordedAction | RecordedEvent | RecordedState | RecordedNote;

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
 * `+00:03.200  → POST /channels/c1/play media=sound:hello-world`.
 *
 * @example console.log(formatTimeline(call.timeline()));
 */
export function formatTimeline(entries: readonly TimelineEntry[]): string {
  return entries
    .map((e) => {
      const at = formatOffset(e.at);
      switch (e.kind) {
        case 'action':
          return `${at}  → ${e.method} ${e.path} ${actionDetails(e)}`.trimEnd();
        case 'event':
          return `${at}  ← ${e.type}${e.injected ? ' (injected)' : ''} ${eventDetails(e.event)}`.trimEnd();
        case 'state':
          return `${at}  ◆ state ${e.state}`;
        case 'caller':
          return `${at}  ☎ ${e.text}`;
        case 'end':
          return `${at}  ■ ${e.text}`;
        default:
          return assertNever(e);
      }
    })
    .join('\n');
}

function assertNever(value: never): never {
  throw new Error(`unexpected timeline entry ${JSON.stringify(value)}`);
}
