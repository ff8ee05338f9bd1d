import type { Clock } from '../clock/Clock.ts';
import type { HttpMethod, OperationSpec } from '../description/spec.ts';
import type { RingflowError } from '../errors/RingflowError.ts';
import type {
  ApplicationHandle,
  ApplicationsApi,
  AsteriskApi,
  BridgeHandle,
  BridgesApi,
  ChannelHandle,
  ChannelsApi,
  DeviceStateHandle,
  DeviceStatesApi,
  EndpointHandle,
  EndpointsApi,
  EventsApi,
  LogChannelHandle,
  MailboxesApi,
  MailboxHandle,
  ModuleHandle,
  PlaybackHandle,
  PlaybacksApi,
  RecordingHandle,
  RecordingsApi,
  SoundHandle,
  SoundsApi,
} from '../generated/types.ts';
import type { RequestOptions } from './requestOptions.ts';
import type { RestTransport } from './RestTransport.ts';
import type { ServerSegment, ServerSegmentOption } from './ServerSegment.ts';
import type { TlsOptions } from './TlsOptions.ts';
import type { RestAuth } from './UndiciTransport.ts';

/** What the `onRequest` observer learns about each completed request. Never carries credentials. */
export interface RequestRecord {
  /** `resource.name` (`channels.answer`), or `apiDocs.resourceListing` for segment detection. */
  readonly operation: string;
  readonly method: HttpMethod;
  /** Path below the interface root, as sent, without the query. */
  readonly path: string;
  /** The reply's status, when a reply came. */
  readonly status?: number;
  /** Time from sending to the outcome, measured on the client's clock. */
  readonly durationMs: number;
  /** The error the caller received, when the request failed (HTTP error, timeout, ...). */
  readonly error?: RingflowError;
}

export interface RestClientOptions {
  /** The interface root, e.g. `http://127.0.0.1:8088/ari`. No credentials in it. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** `basic` (default): an Authorization header; `api_key`: `api_key=user:password` in the query. */
  readonly auth?: RestAuth;
  /** Path segment of the server-level resource. Default `auto`: read once from the resource listing. */
  readonly segment?: ServerSegmentOption;
  /**
   * How long the server may take to reply, in milliseconds on `clock`, counted from the moment
   * the request is written on a connection: time spent waiting for a free pooled connection does
   * not count (the caller's signal still cancels a queued request). Transports without `dispatch`
   * count from the call to `send`. Default 10000; 0 disables it.
   */
  readonly timeoutMs?: number;
  /**
   * Most connections the default transport keeps open to the server. Default 10. Requests beyond
   * them wait in the client until a connection is free (without using up their `timeoutMs`).
   */
  readonly connections?: number;
  /**
   * For `https://` urls: the CA to trust, a client certificate, the server name to check
   * (see {@link TlsOptions}). There is no option to skip certificate checks.
   */
  readonly tls?: TlsOptions;
  /** Source of time for timeouts and durations. Default: the system clock. */
  readonly clock?: Clock;
  /**
   * Replaces the default HTTP transport (an in-process simulator, a recorder). `auth`,
   * `connections` and `tls` only configure the default transport; a given one handles its own.
   */
  readonly transport?: RestTransport;
  /** Called once per completed request, for metrics. Exceptions it throws are ignored. */
  readonly onRequest?: (record: RequestRecord) => void;
}

/** The resources of the interface, each with every operation of the description. */
export interface RestResources {
  /** The server-level resource (`/asterisk/...` on real servers, `/core/...` in the specification). */
  readonly asterisk: AsteriskApi;
  /** Alias of `asterisk`, under the specification's name. */
  readonly core: AsteriskApi;
  readonly endpoints: EndpointsApi;
  readonly channels: ChannelsApi;
  readonly bridges: BridgesApi;
  readonly recordings: RecordingsApi;
  readonly sounds: SoundsApi;
  readonly playbacks: PlaybacksApi;
  readonly deviceStates: DeviceStatesApi;
  readonly mailboxes: MailboxesApi;
  /** User events and channel claims; the event stream itself is a separate client. */
  readonly events: EventsApi;
  readonly applications: ApplicationsApi;
}

/** Handles: an id bound to the operations that address it. */
export interface RestHandles {
  channel(channelId: string): ChannelHandle;
  bridge(bridgeId: string): BridgeHandle;
  playback(playbackId: string): PlaybackHandle;
  /** A stored or live recording (`sub/t2` style names with a directory are fine). */
  recording(recordingName: string): RecordingHandle;
  endpoint(tech: string, resource: string): EndpointHandle;
  deviceState(deviceName: string): DeviceStateHandle;
  mailbox(mailboxName: string): MailboxHandle;
  application(applicationName: string): ApplicationHandle;
  sound(soundId: string): SoundHandle;
  module(moduleName: string): ModuleHandle;
  logChannel(logChannelName: string): LogChannelHandle;
}

/** The typed REST client of one server. Create it with {@link createRestClient}. */
export interface RestClient extends RestResources, RestHandles {
  /**
   * Sends any operation of the description by key (`'channels.answer'`) or spec. The typed
   * methods all go through here; use it for generic tooling.
   */
  request<T = unknown>(
    operation: string | OperationSpec,
    params?: Readonly<Record<string, unknown>>,
    options?: RequestOptions,
  ): Promise<T>;
  /** The server-level segment in use, detecting it first when the option is `auto`. */
  resolveSegment(options?: RequestOptions): Promise<ServerSegment>;
  /** Releases connections. Requests in flight finish; later calls fail with `CLOSED`. */
  close(): Promise<void>;
}
