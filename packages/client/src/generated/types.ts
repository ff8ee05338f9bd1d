// Generated from the interface description by `npm run generate`. Do not edit by hand.
import type { RequestOptions } from '../rest/requestOptions.ts';

/** How the server was built. */
export interface BuildInfo {
  os: string;
  kernel: string;
  options: string;
  machine: string;
  date: string;
  user: string;
}

/** Version and entity id of the server. */
export interface SystemInfo {
  version: string;
  entity_id: string;
}

/** User and group the server runs as. */
export interface SetId {
  user: string;
  group: string;
}

/** Main configuration of the server. */
export interface ConfigInfo {
  name: string;
  default_language: string;
  max_channels?: number;
  max_open_files?: number;
  max_load?: number;
  setid: SetId;
}

/** Start and last reload times. */
export interface StatusInfo {
  startup_time: string;
  last_reload_time: string;
}

/** Facts about the server (build, system, config, status). */
export interface AsteriskInfo {
  build?: BuildInfo;
  system?: SystemInfo;
  config?: ConfigInfo;
  status?: StatusInfo;
}

/** Answer of the liveness check. */
export interface AsteriskPing {
  asterisk_id: string;
  ping: string;
  timestamp: string;
}

/** A loadable module and its state. */
export interface Module {
  name: string;
  description: string;
  use_count: number;
  status: string;
  support_level: string;
}

/** A log channel and its levels. */
export interface LogChannel {
  channel: string;
  type: string;
  status: string;
  configuration: string;
}

/** The value of a variable. */
export interface Variable {
  value: string;
}

/** Values of several variables. @since interface >1.10.0 */
export interface Variables {
  variables: Record<string, unknown>;
}

/** One attribute of a dynamic configuration object. */
export interface ConfigTuple {
  attribute: string;
  value: string;
}

/** A device or peer channels are made to or from. */
export interface Endpoint {
  technology: string;
  resource: string;
  state?: "unknown" | "offline" | "online";
  channel_ids: string[];
}

/** An out-of-call text message. */
export interface TextMessage {
  from: string;
  to: string;
  body: string;
  variables?: Record<string, unknown>;
}

/** A dialed channel. */
export interface Dialed {
}

/** A dialplan location: context, extension, priority. */
export interface DialplanCEP {
  context: string;
  exten: string;
  priority: number;
  app_name: string;
  app_data: string;
}

/** Name and number of a party. */
export interface CallerID {
  name: string;
  number: string;
}

/** RTP statistics of a channel. */
export interface RTPstat {
  txcount: number;
  rxcount: number;
  txjitter?: number;
  rxjitter?: number;
  remote_maxjitter?: number;
  remote_minjitter?: number;
  remote_normdevjitter?: number;
  remote_stdevjitter?: number;
  local_maxjitter?: number;
  local_minjitter?: number;
  local_normdevjitter?: number;
  local_stdevjitter?: number;
  txploss: number;
  rxploss: number;
  remote_maxrxploss?: number;
  remote_minrxploss?: number;
  remote_normdevrxploss?: number;
  remote_stdevrxploss?: number;
  local_maxrxploss?: number;
  local_minrxploss?: number;
  local_normdevrxploss?: number;
  local_stdevrxploss?: number;
  rtt?: number;
  maxrtt?: number;
  minrtt?: number;
  normdevrtt?: number;
  stdevrtt?: number;
  local_ssrc: number;
  remote_ssrc: number;
  txoctetcount: number;
  rxoctetcount: number;
  channel_uniqueid: string;
}

/** One call leg between the server and an endpoint. */
export interface Channel {
  id: string;
  /** @since interface >1.10.0 */
  protocol_id: string;
  name: string;
  state: "Down" | "Rsrved" | "OffHook" | "Dialing" | "Ring" | "Ringing" | "Up" | "Busy" | "Dialing Offhook" | "Pre-ring" | "Unknown";
  caller: CallerID;
  connected: CallerID;
  accountcode: string;
  dialplan: DialplanCEP;
  creationtime: string;
  language: string;
  /** @since interface >1.10.0 */
  channelvars?: Record<string, unknown>;
  /** @since interface >1.10.0 */
  caller_rdnis?: string;
  /** @since interface >1.10.0 */
  tenantid?: string;
}

/** A mixing point for channels. */
export interface Bridge {
  id: string;
  technology: string;
  bridge_type: "mixing" | "holding";
  bridge_class: string;
  creator: string;
  name: string;
  channels: string[];
  video_mode?: string;
  video_source_id?: string;
  creationtime: string;
  /** @since interface >1.10.0 */
  bridgevars?: Record<string, unknown>;
}

/** A finished recording on disk. */
export interface StoredRecording {
  name: string;
  format: string;
}

/** A recording in progress. */
export interface LiveRecording {
  name: string;
  format: string;
  target_uri: string;
  state: "queued" | "recording" | "paused" | "done" | "failed" | "canceled";
  duration?: number;
  talking_duration?: number;
  silence_duration?: number;
  cause?: string;
}

/** A language and a format a sound exists in. */
export interface FormatLangPair {
  language: string;
  format: string;
}

/** A sound file and the languages and formats it exists in. */
export interface Sound {
  id: string;
  text?: string;
  formats: FormatLangPair[];
}

/** Media being played to a channel or bridge. */
export interface Playback {
  id: string;
  media_uri: string;
  /** @since interface >1.10.0 */
  next_media_uri?: string;
  target_uri: string;
  language?: string;
  state: "queued" | "playing" | "paused" | "continuing" | "done" | "failed";
}

/** A device and its state. */
export interface DeviceState {
  name: string;
  state: "UNKNOWN" | "NOT_INUSE" | "INUSE" | "BUSY" | "INVALID" | "UNAVAILABLE" | "RINGING" | "RINGINUSE" | "ONHOLD";
}

/** A mailbox and its message counts. */
export interface Mailbox {
  name: string;
  old_messages: number;
  new_messages: number;
}

/** Anything the server sends on the event stream. */
export interface MessageBase {
  type: string;
  asterisk_id?: string;
}

/** Reply to a request that lacked required parameters. */
export interface MissingParams extends MessageBase {
  type: "MissingParams";
  params: string[];
}

/** An asynchronous notification addressed to one application. */
export interface EventBase extends MessageBase {
  application: string;
  timestamp: string;
}

/** Details of a SIP contact and its reachability. */
export interface ContactInfo {
  uri: string;
  contact_status: "Unreachable" | "Reachable" | "Unknown" | "NonQualified" | "Removed";
  aor: string;
  roundtrip_usec?: string;
}

/** Details of a peer and its status. */
export interface Peer {
  peer_status: string;
  cause?: string;
  address?: string;
  port?: string;
  time?: string;
}

/** A device state the application is subscribed to changed. */
export interface DeviceStateChanged extends EventBase {
  type: "DeviceStateChanged";
  device_state: DeviceState;
}

/** A playback began. */
export interface PlaybackStarted extends EventBase {
  type: "PlaybackStarted";
  playback: Playback;
}

/** A playback moved on to the next item of its media list. @since interface >1.10.0 */
export interface PlaybackContinuing extends EventBase {
  type: "PlaybackContinuing";
  playback: Playback;
}

/** A playback ended (done, stopped or failed). */
export interface PlaybackFinished extends EventBase {
  type: "PlaybackFinished";
  playback: Playback;
}

/** A live recording began. */
export interface RecordingStarted extends EventBase {
  type: "RecordingStarted";
  recording: LiveRecording;
}

/** A live recording ended and was stored. */
export interface RecordingFinished extends EventBase {
  type: "RecordingFinished";
  recording: LiveRecording;
}

/** A live recording could not be made or kept. */
export interface RecordingFailed extends EventBase {
  type: "RecordingFailed";
  recording: LiveRecording;
}

/** A channel could not be moved to another application. */
export interface ApplicationMoveFailed extends EventBase {
  type: "ApplicationMoveFailed";
  channel: Channel;
  destination: string;
  args: string[];
}

/** An application connected. @since interface >1.10.0 */
export interface ApplicationRegistered extends EventBase {
  type: "ApplicationRegistered";
}

/** An application disconnected. @since interface >1.10.0 */
export interface ApplicationUnregistered extends EventBase {
  type: "ApplicationUnregistered";
}

/** Another connection took over this application; this one receives no more events. */
export interface ApplicationReplaced extends EventBase {
  type: "ApplicationReplaced";
}

/** A bridge was created. */
export interface BridgeCreated extends EventBase {
  type: "BridgeCreated";
  bridge: Bridge;
}

/** A bridge was destroyed. */
export interface BridgeDestroyed extends EventBase {
  type: "BridgeDestroyed";
  bridge: Bridge;
}

/** One bridge was merged into another. */
export interface BridgeMerged extends EventBase {
  type: "BridgeMerged";
  bridge: Bridge;
  bridge_from: Bridge;
}

/** The video source of a multi-party bridge changed. */
export interface BridgeVideoSourceChanged extends EventBase {
  type: "BridgeVideoSourceChanged";
  bridge: Bridge;
  old_video_source_id?: string;
}

/** A blind transfer took place. */
export interface BridgeBlindTransfer extends EventBase {
  type: "BridgeBlindTransfer";
  channel: Channel;
  replace_channel?: Channel;
  transferee?: Channel;
  exten: string;
  context: string;
  result: string;
  is_external: boolean;
  bridge?: Bridge;
}

/** An attended transfer took place. */
export interface BridgeAttendedTransfer extends EventBase {
  type: "BridgeAttendedTransfer";
  transferer_first_leg: Channel;
  transferer_second_leg: Channel;
  replace_channel?: Channel;
  transferee?: Channel;
  transfer_target?: Channel;
  result: string;
  is_external: boolean;
  transferer_first_leg_bridge?: Bridge;
  transferer_second_leg_bridge?: Bridge;
  destination_type: string;
  destination_bridge?: string;
  destination_application?: string;
  destination_link_first_leg?: Channel;
  destination_link_second_leg?: Channel;
  destination_threeway_channel?: Channel;
  destination_threeway_bridge?: Bridge;
}

/** A channel was created. */
export interface ChannelCreated extends EventBase {
  type: "ChannelCreated";
  channel: Channel;
}

/** A channel was destroyed; carries the hangup cause. */
export interface ChannelDestroyed extends EventBase {
  type: "ChannelDestroyed";
  cause: number;
  cause_txt: string;
  /** @since interface >1.10.0 */
  tech_cause?: number;
  channel: Channel;
}

/** A channel joined a bridge. */
export interface ChannelEnteredBridge extends EventBase {
  type: "ChannelEnteredBridge";
  bridge: Bridge;
  channel?: Channel;
}

/** A channel left a bridge. */
export interface ChannelLeftBridge extends EventBase {
  type: "ChannelLeftBridge";
  bridge: Bridge;
  channel: Channel;
}

/** The state of a channel changed (Ring, Up, ...). */
export interface ChannelStateChange extends EventBase {
  type: "ChannelStateChange";
  channel: Channel;
}

/** A DTMF digit ended on a channel. */
export interface ChannelDtmfReceived extends EventBase {
  type: "ChannelDtmfReceived";
  digit: string;
  duration_ms: number;
  channel: Channel;
}

/** A channel moved to another dialplan location. */
export interface ChannelDialplan extends EventBase {
  type: "ChannelDialplan";
  channel: Channel;
  dialplan_app: string;
  dialplan_app_data: string;
}

/** The caller id of a channel changed. */
export interface ChannelCallerId extends EventBase {
  type: "ChannelCallerId";
  caller_presentation: number;
  caller_presentation_txt: string;
  channel: Channel;
}

/** A user event was raised by the dialplan or through the interface. */
export interface ChannelUserevent extends EventBase {
  type: "ChannelUserevent";
  eventname: string;
  channel?: Channel;
  bridge?: Bridge;
  endpoint?: Endpoint;
  userevent: Record<string, unknown>;
}

/** Someone asked for a channel to be hung up. */
export interface ChannelHangupRequest extends EventBase {
  type: "ChannelHangupRequest";
  cause?: number;
  /** @since interface >1.10.0 */
  tech_cause?: number;
  soft?: boolean;
  channel: Channel;
}

/** A channel variable (or a global one, without channel) was set. */
export interface ChannelVarset extends EventBase {
  type: "ChannelVarset";
  variable: string;
  value: string;
  channel?: Channel;
}

/** A channel was put on hold. */
export interface ChannelHold extends EventBase {
  type: "ChannelHold";
  channel: Channel;
  musicclass?: string;
}

/** A channel was taken off hold. */
export interface ChannelUnhold extends EventBase {
  type: "ChannelUnhold";
  channel: Channel;
}

/** A tone was detected on a channel. @since interface >1.10.0 */
export interface ChannelToneDetected extends EventBase {
  type: "ChannelToneDetected";
  channel: Channel;
}

/** Talk detection heard a channel start talking. */
export interface ChannelTalkingStarted extends EventBase {
  type: "ChannelTalkingStarted";
  channel: Channel;
}

/** Talk detection heard a channel stop talking. */
export interface ChannelTalkingFinished extends EventBase {
  type: "ChannelTalkingFinished";
  channel: Channel;
  duration: number;
}

/** A contact changed status. */
export interface ContactStatusChange extends EventBase {
  type: "ContactStatusChange";
  endpoint: Endpoint;
  contact_info: ContactInfo;
}

/** A peer changed status. */
export interface PeerStatusChange extends EventBase {
  type: "PeerStatusChange";
  endpoint: Endpoint;
  peer: Peer;
}

/** An endpoint changed state. */
export interface EndpointStateChange extends EventBase {
  type: "EndpointStateChange";
  endpoint: Endpoint;
}

/** Progress of a dial attempt. */
export interface Dial extends EventBase {
  type: "Dial";
  caller?: Channel;
  peer: Channel;
  forward?: string;
  forwarded?: Channel;
  dialstring?: string;
  dialstatus: string;
}

/** A channel left the application. */
export interface StasisEnd extends EventBase {
  type: "StasisEnd";
  channel: Channel;
}

/** A channel entered the application, with its arguments. */
export interface StasisStart extends EventBase {
  type: "StasisStart";
  args: string[];
  channel: Channel;
  replace_channel?: Channel;
}

/** An out-of-call text message arrived from an endpoint. */
export interface TextMessageReceived extends EventBase {
  type: "TextMessageReceived";
  message: TextMessage;
  endpoint?: Endpoint;
}

/** The connected line of a channel changed. */
export interface ChannelConnectedLine extends EventBase {
  type: "ChannelConnectedLine";
  channel: Channel;
}

/** A transfer was requested on a channel. @since interface >1.10.0 */
export interface ChannelTransfer extends EventBase {
  type: "ChannelTransfer";
  state?: string;
  refer_to: ReferTo;
  referred_by: ReferredBy;
}

/** Target of a refer. @since interface >1.10.0 */
export interface ReferTo {
  requested_destination: RequiredDestination;
  destination_channel?: Channel;
  connected_channel?: Channel;
  bridge?: Bridge;
}

/** Party that asked for a refer. @since interface >1.10.0 */
export interface ReferredBy {
  source_channel: Channel;
  connected_channel?: Channel;
  bridge?: Bridge;
}

/** Where a transfer must go. @since interface >1.10.0 */
export interface RequiredDestination {
  protocol_id?: string;
  destination?: string;
  additional_protocol_params?: AdditionalParam[];
}

/** Extra parameter of a refer. @since interface >1.10.0 */
export interface AdditionalParam {
  parameter_name: string;
  parameter_value: string;
}

/** One HTTP header of a request or answer carried over the WebSocket. @since interface >1.10.0 */
export interface RESTHeader {
  name: string;
  value: string;
}

/** One query parameter of a request carried over the WebSocket. @since interface >1.10.0 */
export interface RESTQueryStringParameter {
  name: string;
  value: string;
}

/** A REST request carried over the WebSocket. @since interface >1.10.0 */
export interface RESTRequest {
  type: string;
  transaction_id: string;
  request_id: string;
  method: string;
  uri: string;
  content_type?: string;
  query_strings?: RESTQueryStringParameter[];
  message_body?: string;
}

/** The answer to a REST request carried over the WebSocket. @since interface >1.10.0 */
export interface RESTResponse extends EventBase {
  type: "RESTResponse";
  transaction_id: string;
  request_id: string;
  status_code: number;
  reason_phrase: string;
  uri: string;
  content_type?: string;
  message_body?: string;
}

/** A channel is offered to several applications that may claim it. @since interface >1.10.0 */
export interface CallBroadcast extends EventBase {
  type: "CallBroadcast";
  channel: Channel;
  caller?: string;
  called?: string;
}

/** A broadcast channel was claimed. @since interface >1.10.0 */
export interface CallClaimed extends EventBase {
  type: "CallClaimed";
  channel: Channel;
  winner_app: string;
}

/** An application and the resources it is subscribed to. */
export interface Application {
  name: string;
  channel_ids: string[];
  bridge_ids: string[];
  endpoint_ids: string[];
  device_names: string[];
  events_allowed: Record<string, unknown>[];
  events_disallowed: Record<string, unknown>[];
}

/** Every event type the description knows. */
export type AriEvent =
  | DeviceStateChanged
  | PlaybackStarted
  | PlaybackContinuing
  | PlaybackFinished
  | RecordingStarted
  | RecordingFinished
  | RecordingFailed
  | ApplicationMoveFailed
  | ApplicationRegistered
  | ApplicationUnregistered
  | ApplicationReplaced
  | BridgeCreated
  | BridgeDestroyed
  | BridgeMerged
  | BridgeBlindTransfer
  | BridgeAttendedTransfer
  | BridgeVideoSourceChanged
  | ChannelCreated
  | ChannelDestroyed
  | ChannelEnteredBridge
  | ChannelLeftBridge
  | ChannelStateChange
  | ChannelDtmfReceived
  | ChannelDialplan
  | ChannelCallerId
  | ChannelUserevent
  | ChannelHangupRequest
  | ChannelVarset
  | ChannelToneDetected
  | ChannelTalkingStarted
  | ChannelTalkingFinished
  | ChannelHold
  | ChannelUnhold
  | ContactStatusChange
  | EndpointStateChange
  | Dial
  | StasisEnd
  | StasisStart
  | TextMessageReceived
  | ChannelConnectedLine
  | PeerStatusChange
  | ChannelTransfer
  | RESTResponse
  | CallBroadcast
  | CallClaimed;

/** Names of the known event types. */
export type AriEventType = AriEvent['type'];

/** Messages that are not events (a reply about missing parameters). */
export type AriMessage = AriEvent | MissingParams;

/** Parameters of `asterisk.getObject` (GET /asterisk/config/dynamic/{configClass}/{objectType}/{id}). */
export interface AsteriskGetObjectParams {
  configClass: string;
  objectType: string;
  id: string;
}

/** Parameters of `asterisk.updateObject` (PUT /asterisk/config/dynamic/{configClass}/{objectType}/{id}). */
export interface AsteriskUpdateObjectParams {
  configClass: string;
  objectType: string;
  id: string;
  fields?: ConfigTuple[];
}

/** Parameters of `asterisk.deleteObject` (DELETE /asterisk/config/dynamic/{configClass}/{objectType}/{id}). */
export interface AsteriskDeleteObjectParams {
  configClass: string;
  objectType: string;
  id: string;
}

/** Parameters of `asterisk.getInfo` (GET /asterisk/info). */
export interface AsteriskGetInfoParams {
  only?: ("build" | "system" | "config" | "status") | readonly ("build" | "system" | "config" | "status")[];
}

/** Parameters of `asterisk.ping` (GET /asterisk/ping). */
export interface AsteriskPingParams {
}

/** Parameters of `asterisk.listModules` (GET /asterisk/modules). */
export interface AsteriskListModulesParams {
}

/** Parameters of `asterisk.getModule` (GET /asterisk/modules/{moduleName}). */
export interface AsteriskGetModuleParams {
  moduleName: string;
}

/** Parameters of `asterisk.loadModule` (POST /asterisk/modules/{moduleName}). */
export interface AsteriskLoadModuleParams {
  moduleName: string;
}

/** Parameters of `asterisk.unloadModule` (DELETE /asterisk/modules/{moduleName}). */
export interface AsteriskUnloadModuleParams {
  moduleName: string;
}

/** Parameters of `asterisk.reloadModule` (PUT /asterisk/modules/{moduleName}). */
export interface AsteriskReloadModuleParams {
  moduleName: string;
}

/** Parameters of `asterisk.listLogChannels` (GET /asterisk/logging). */
export interface AsteriskListLogChannelsParams {
}

/** Parameters of `asterisk.addLog` (POST /asterisk/logging/{logChannelName}). */
export interface AsteriskAddLogParams {
  logChannelName: string;
  configuration: string;
}

/** Parameters of `asterisk.deleteLog` (DELETE /asterisk/logging/{logChannelName}). */
export interface AsteriskDeleteLogParams {
  logChannelName: string;
}

/** Parameters of `asterisk.rotateLog` (PUT /asterisk/logging/{logChannelName}/rotate). */
export interface AsteriskRotateLogParams {
  logChannelName: string;
}

/** Parameters of `asterisk.getGlobalVar` (GET /asterisk/variable). */
export interface AsteriskGetGlobalVarParams {
  variable: string;
}

/** Parameters of `asterisk.setGlobalVar` (POST /asterisk/variable). */
export interface AsteriskSetGlobalVarParams {
  variable: string;
  value?: string;
}

/** Parameters of `endpoints.list` (GET /endpoints). */
export interface EndpointsListParams {
}

/** Parameters of `endpoints.sendMessage` (PUT /endpoints/sendMessage). */
export interface EndpointsSendMessageParams {
  to: string;
  from: string;
  body?: string;
  variables?: Record<string, unknown>;
}

/** Parameters of `endpoints.refer` (POST /endpoints/refer). */
export interface EndpointsReferParams {
  to: string;
  from: string;
  refer_to: string;
  /** Default: false. */
  to_self?: boolean;
  variables?: Record<string, unknown>;
}

/** Parameters of `endpoints.listByTech` (GET /endpoints/{tech}). */
export interface EndpointsListByTechParams {
  tech: string;
}

/** Parameters of `endpoints.get` (GET /endpoints/{tech}/{resource}). */
export interface EndpointsGetParams {
  tech: string;
  resource: string;
}

/** Parameters of `endpoints.sendMessageToEndpoint` (PUT /endpoints/{tech}/{resource}/sendMessage). */
export interface EndpointsSendMessageToEndpointParams {
  tech: string;
  resource: string;
  from: string;
  body?: string;
  variables?: Record<string, unknown>;
}

/** Parameters of `endpoints.referToEndpoint` (POST /endpoints/{tech}/{resource}/refer). */
export interface EndpointsReferToEndpointParams {
  tech: string;
  resource: string;
  from: string;
  refer_to: string;
  /** Default: false. */
  to_self?: boolean;
  variables?: Record<string, unknown>;
}

/** Parameters of `channels.list` (GET /channels). */
export interface ChannelsListParams {
}

/** Parameters of `channels.originate` (POST /channels). */
export interface ChannelsOriginateParams {
  endpoint: string;
  extension?: string;
  context?: string;
  priority?: number;
  label?: string;
  app?: string;
  appArgs?: string;
  callerId?: string;
  /** Default: 30. */
  timeout?: number;
  variables?: Record<string, unknown>;
  channelId?: string;
  otherChannelId?: string;
  originator?: string;
  formats?: string;
}

/** Parameters of `channels.create` (POST /channels/create). */
export interface ChannelsCreateParams {
  endpoint: string;
  app: string;
  appArgs?: string;
  channelId?: string;
  otherChannelId?: string;
  originator?: string;
  formats?: string;
  variables?: Record<string, unknown>;
}

/** Parameters of `channels.get` (GET /channels/{channelId}). */
export interface ChannelsGetParams {
  channelId: string;
}

/** Parameters of `channels.originateWithId` (POST /channels/{channelId}). */
export interface ChannelsOriginateWithIdParams {
  channelId: string;
  endpoint: string;
  extension?: string;
  context?: string;
  priority?: number;
  label?: string;
  app?: string;
  appArgs?: string;
  callerId?: string;
  /** Default: 30. */
  timeout?: number;
  variables?: Record<string, unknown>;
  otherChannelId?: string;
  originator?: string;
  formats?: string;
}

/** Parameters of `channels.hangup` (DELETE /channels/{channelId}). */
export interface ChannelsHangupParams {
  channelId: string;
  /** @since interface >1.10.0 */
  reason_code?: string;
  reason?: "normal" | "busy" | "congestion" | "no_answer" | "timeout" | "rejected" | "unallocated" | "normal_unspecified" | "number_incomplete" | "codec_mismatch" | "interworking" | "failure" | "answered_elsewhere";
}

/** Parameters of `channels.continueInDialplan` (POST /channels/{channelId}/continue). */
export interface ChannelsContinueInDialplanParams {
  channelId: string;
  context?: string;
  extension?: string;
  priority?: number;
  label?: string;
}

/** Parameters of `channels.move` (POST /channels/{channelId}/move). */
export interface ChannelsMoveParams {
  channelId: string;
  app: string;
  appArgs?: string;
}

/** Parameters of `channels.redirect` (POST /channels/{channelId}/redirect). */
export interface ChannelsRedirectParams {
  channelId: string;
  endpoint: string;
}

/** Parameters of `channels.answer` (POST /channels/{channelId}/answer). */
export interface ChannelsAnswerParams {
  channelId: string;
}

/** Parameters of `channels.ring` (POST /channels/{channelId}/ring). */
export interface ChannelsRingParams {
  channelId: string;
}

/** Parameters of `channels.ringStop` (DELETE /channels/{channelId}/ring). */
export interface ChannelsRingStopParams {
  channelId: string;
}

/** Parameters of `channels.progress` (POST /channels/{channelId}/progress). */
export interface ChannelsProgressParams {
  channelId: string;
}

/** Parameters of `channels.sendDTMF` (POST /channels/{channelId}/dtmf). */
export interface ChannelsSendDTMFParams {
  channelId: string;
  dtmf?: string;
  /** Default: 0. */
  before?: number;
  /** Default: 100. */
  between?: number;
  /** Default: 100. */
  duration?: number;
  /** Default: 0. */
  after?: number;
}

/** Parameters of `channels.mute` (POST /channels/{channelId}/mute). */
export interface ChannelsMuteParams {
  channelId: string;
  /** Default: "both". */
  direction?: "both" | "in" | "out";
}

/** Parameters of `channels.unmute` (DELETE /channels/{channelId}/mute). */
export interface ChannelsUnmuteParams {
  channelId: string;
  /** Default: "both". */
  direction?: "both" | "in" | "out";
}

/** Parameters of `channels.hold` (POST /channels/{channelId}/hold). */
export interface ChannelsHoldParams {
  channelId: string;
}

/** Parameters of `channels.unhold` (DELETE /channels/{channelId}/hold). */
export interface ChannelsUnholdParams {
  channelId: string;
}

/** Parameters of `channels.startMoh` (POST /channels/{channelId}/moh). */
export interface ChannelsStartMohParams {
  channelId: string;
  mohClass?: string;
}

/** Parameters of `channels.stopMoh` (DELETE /channels/{channelId}/moh). */
export interface ChannelsStopMohParams {
  channelId: string;
}

/** Parameters of `channels.startSilence` (POST /channels/{channelId}/silence). */
export interface ChannelsStartSilenceParams {
  channelId: string;
}

/** Parameters of `channels.stopSilence` (DELETE /channels/{channelId}/silence). */
export interface ChannelsStopSilenceParams {
  channelId: string;
}

/** Parameters of `channels.play` (POST /channels/{channelId}/play). */
export interface ChannelsPlayParams {
  channelId: string;
  media: string | readonly string[];
  lang?: string;
  offsetms?: number;
  /** Default: 3000. */
  skipms?: number;
  playbackId?: string;
}

/** Parameters of `channels.playWithId` (POST /channels/{channelId}/play/{playbackId}). */
export interface ChannelsPlayWithIdParams {
  channelId: string;
  playbackId: string;
  media: string | readonly string[];
  lang?: string;
  offsetms?: number;
  /** Default: 3000. */
  skipms?: number;
}

/** Parameters of `channels.record` (POST /channels/{channelId}/record). */
export interface ChannelsRecordParams {
  channelId: string;
  name: string;
  format: string;
  /** Default: 0. */
  maxDurationSeconds?: number;
  /** Default: 0. */
  maxSilenceSeconds?: number;
  /** Default: "fail". */
  ifExists?: "fail" | "overwrite" | "append";
  /** Default: false. */
  beep?: boolean;
  /** Default: "none". */
  terminateOn?: "none" | "any" | "*" | "#";
}

/** Parameters of `channels.getChannelVar` (GET /channels/{channelId}/variable). */
export interface ChannelsGetChannelVarParams {
  channelId: string;
  variable: string;
}

/** Parameters of `channels.setChannelVar` (POST /channels/{channelId}/variable). */
export interface ChannelsSetChannelVarParams {
  channelId: string;
  variable: string;
  value?: string;
  /** Default: false. @since interface >1.10.0 */
  report_events?: boolean;
}

/** Parameters of `channels.getChannelVars` (GET /channels/{channelId}/variables). */
export interface ChannelsGetChannelVarsParams {
  channelId: string;
  variables: string | readonly string[];
}

/** Parameters of `channels.setChannelVars` (POST /channels/{channelId}/variables). */
export interface ChannelsSetChannelVarsParams {
  channelId: string;
  variables: Record<string, unknown>;
}

/** Parameters of `channels.snoopChannel` (POST /channels/{channelId}/snoop). */
export interface ChannelsSnoopChannelParams {
  channelId: string;
  /** Default: "none". */
  spy?: "none" | "both" | "out" | "in";
  /** Default: "none". */
  whisper?: "none" | "both" | "out" | "in";
  app: string;
  appArgs?: string;
  snoopId?: string;
}

/** Parameters of `channels.snoopChannelWithId` (POST /channels/{channelId}/snoop/{snoopId}). */
export interface ChannelsSnoopChannelWithIdParams {
  channelId: string;
  snoopId: string;
  /** Default: "none". */
  spy?: "none" | "both" | "out" | "in";
  /** Default: "none". */
  whisper?: "none" | "both" | "out" | "in";
  app: string;
  appArgs?: string;
}

/** Parameters of `channels.dial` (POST /channels/{channelId}/dial). */
export interface ChannelsDialParams {
  channelId: string;
  caller?: string;
  /** Default: 0. */
  timeout?: number;
}

/** Parameters of `channels.rtpstatistics` (GET /channels/{channelId}/rtp_statistics). */
export interface ChannelsRtpstatisticsParams {
  channelId: string;
}

/** Parameters of `channels.externalMedia` (POST /channels/externalMedia). */
export interface ChannelsExternalMediaParams {
  channelId?: string;
  app: string;
  variables?: Record<string, unknown>;
  external_host?: string;
  /** Default: "rtp". */
  encapsulation?: "rtp" | "audiosocket" | "none";
  /** Default: "udp". */
  transport?: "udp" | "tcp" | "websocket";
  /** Default: "client". */
  connection_type?: "client" | "server";
  format: string;
  /** Default: "both". */
  direction?: "both";
  data?: string;
  transport_data?: string;
}

/** Parameters of `channels.transfer_progress` (POST /channels/{channelId}/transfer_progress). */
export interface ChannelsTransferProgressParams {
  channelId: string;
  states: string;
}

/** Parameters of `bridges.list` (GET /bridges). */
export interface BridgesListParams {
}

/** Parameters of `bridges.create` (POST /bridges). */
export interface BridgesCreateParams {
  type?: string;
  bridgeId?: string;
  name?: string;
  /** @since interface >1.10.0 */
  variables?: Record<string, unknown>;
}

/** Parameters of `bridges.createWithId` (POST /bridges/{bridgeId}). */
export interface BridgesCreateWithIdParams {
  type?: string;
  bridgeId: string;
  name?: string;
  /** @since interface >1.10.0 */
  variables?: Record<string, unknown>;
}

/** Parameters of `bridges.get` (GET /bridges/{bridgeId}). */
export interface BridgesGetParams {
  bridgeId: string;
}

/** Parameters of `bridges.destroy` (DELETE /bridges/{bridgeId}). */
export interface BridgesDestroyParams {
  bridgeId: string;
}

/** Parameters of `bridges.getBridgeVar` (GET /bridges/{bridgeId}/variable). */
export interface BridgesGetBridgeVarParams {
  bridgeId: string;
  variable: string;
}

/** Parameters of `bridges.setBridgeVar` (POST /bridges/{bridgeId}/variable). */
export interface BridgesSetBridgeVarParams {
  bridgeId: string;
  variable: string;
  value?: string;
  /** Default: false. */
  report_events?: boolean;
}

/** Parameters of `bridges.getBridgeVars` (GET /bridges/{bridgeId}/variables). */
export interface BridgesGetBridgeVarsParams {
  bridgeId: string;
  variables: string | readonly string[];
}

/** Parameters of `bridges.setBridgeVars` (POST /bridges/{bridgeId}/variables). */
export interface BridgesSetBridgeVarsParams {
  bridgeId: string;
  variables: Record<string, unknown>;
}

/** Parameters of `bridges.addChannel` (POST /bridges/{bridgeId}/addChannel). */
export interface BridgesAddChannelParams {
  bridgeId: string;
  channel: string | readonly string[];
  role?: string;
  /** Default: false. @since interface >1.10.0 */
  absorbDTMF?: boolean;
  /** Default: false. @since interface >1.10.0 */
  mute?: boolean;
  /** Default: false. @since interface >1.10.0 */
  inhibitConnectedLineUpdates?: boolean;
}

/** Parameters of `bridges.removeChannel` (POST /bridges/{bridgeId}/removeChannel). */
export interface BridgesRemoveChannelParams {
  bridgeId: string;
  channel: string | readonly string[];
}

/** Parameters of `bridges.setVideoSource` (POST /bridges/{bridgeId}/videoSource/{channelId}). */
export interface BridgesSetVideoSourceParams {
  bridgeId: string;
  channelId: string;
}

/** Parameters of `bridges.clearVideoSource` (DELETE /bridges/{bridgeId}/videoSource). */
export interface BridgesClearVideoSourceParams {
  bridgeId: string;
}

/** Parameters of `bridges.startMoh` (POST /bridges/{bridgeId}/moh). */
export interface BridgesStartMohParams {
  bridgeId: string;
  mohClass?: string;
}

/** Parameters of `bridges.stopMoh` (DELETE /bridges/{bridgeId}/moh). */
export interface BridgesStopMohParams {
  bridgeId: string;
}

/** Parameters of `bridges.play` (POST /bridges/{bridgeId}/play). */
export interface BridgesPlayParams {
  bridgeId: string;
  media: string | readonly string[];
  /** @since interface >1.10.0 */
  announcer_format?: string;
  lang?: string;
  /** Default: 0. */
  offsetms?: number;
  /** Default: 3000. */
  skipms?: number;
  playbackId?: string;
}

/** Parameters of `bridges.playWithId` (POST /bridges/{bridgeId}/play/{playbackId}). */
export interface BridgesPlayWithIdParams {
  bridgeId: string;
  playbackId: string;
  media: string | readonly string[];
  /** @since interface >1.10.0 */
  announcer_format?: string;
  lang?: string;
  /** Default: 0. */
  offsetms?: number;
  /** Default: 3000. */
  skipms?: number;
}

/** Parameters of `bridges.record` (POST /bridges/{bridgeId}/record). */
export interface BridgesRecordParams {
  bridgeId: string;
  name: string;
  format: string;
  /** @since interface >1.10.0 */
  recorder_format?: string;
  /** Default: 0. */
  maxDurationSeconds?: number;
  /** Default: 0. */
  maxSilenceSeconds?: number;
  /** Default: "fail". */
  ifExists?: "fail" | "overwrite" | "append";
  /** Default: false. */
  beep?: boolean;
  /** Default: "none". */
  terminateOn?: "none" | "any" | "*" | "#";
}

/** Parameters of `recordings.listStored` (GET /recordings/stored). */
export interface RecordingsListStoredParams {
}

/** Parameters of `recordings.getStored` (GET /recordings/stored/{recordingName}). */
export interface RecordingsGetStoredParams {
  recordingName: string;
}

/** Parameters of `recordings.deleteStored` (DELETE /recordings/stored/{recordingName}). */
export interface RecordingsDeleteStoredParams {
  recordingName: string;
}

/** Parameters of `recordings.getStoredFile` (GET /recordings/stored/{recordingName}/file). */
export interface RecordingsGetStoredFileParams {
  recordingName: string;
}

/** Parameters of `recordings.copyStored` (POST /recordings/stored/{recordingName}/copy). */
export interface RecordingsCopyStoredParams {
  recordingName: string;
  destinationRecordingName: string;
}

/** Parameters of `recordings.getLive` (GET /recordings/live/{recordingName}). */
export interface RecordingsGetLiveParams {
  recordingName: string;
}

/** Parameters of `recordings.cancel` (DELETE /recordings/live/{recordingName}). */
export interface RecordingsCancelParams {
  recordingName: string;
}

/** Parameters of `recordings.stop` (POST /recordings/live/{recordingName}/stop). */
export interface RecordingsStopParams {
  recordingName: string;
}

/** Parameters of `recordings.pause` (POST /recordings/live/{recordingName}/pause). */
export interface RecordingsPauseParams {
  recordingName: string;
}

/** Parameters of `recordings.unpause` (DELETE /recordings/live/{recordingName}/pause). */
export interface RecordingsUnpauseParams {
  recordingName: string;
}

/** Parameters of `recordings.mute` (POST /recordings/live/{recordingName}/mute). */
export interface RecordingsMuteParams {
  recordingName: string;
}

/** Parameters of `recordings.unmute` (DELETE /recordings/live/{recordingName}/mute). */
export interface RecordingsUnmuteParams {
  recordingName: string;
}

/** Parameters of `sounds.list` (GET /sounds). */
export interface SoundsListParams {
  lang?: string;
  format?: string;
}

/** Parameters of `sounds.get` (GET /sounds/{soundId}). */
export interface SoundsGetParams {
  soundId: string;
}

/** Parameters of `playbacks.get` (GET /playbacks/{playbackId}). */
export interface PlaybacksGetParams {
  playbackId: string;
}

/** Parameters of `playbacks.stop` (DELETE /playbacks/{playbackId}). */
export interface PlaybacksStopParams {
  playbackId: string;
}

/** Parameters of `playbacks.control` (POST /playbacks/{playbackId}/control). */
export interface PlaybacksControlParams {
  playbackId: string;
  operation: "restart" | "pause" | "unpause" | "reverse" | "forward";
}

/** Parameters of `deviceStates.list` (GET /deviceStates). */
export interface DeviceStatesListParams {
}

/** Parameters of `deviceStates.get` (GET /deviceStates/{deviceName}). */
export interface DeviceStatesGetParams {
  deviceName: string;
}

/** Parameters of `deviceStates.update` (PUT /deviceStates/{deviceName}). */
export interface DeviceStatesUpdateParams {
  deviceName: string;
  deviceState: "NOT_INUSE" | "INUSE" | "BUSY" | "INVALID" | "UNAVAILABLE" | "RINGING" | "RINGINUSE" | "ONHOLD";
}

/** Parameters of `deviceStates.delete` (DELETE /deviceStates/{deviceName}). */
export interface DeviceStatesDeleteParams {
  deviceName: string;
}

/** Parameters of `mailboxes.list` (GET /mailboxes). */
export interface MailboxesListParams {
}

/** Parameters of `mailboxes.get` (GET /mailboxes/{mailboxName}). */
export interface MailboxesGetParams {
  mailboxName: string;
}

/** Parameters of `mailboxes.update` (PUT /mailboxes/{mailboxName}). */
export interface MailboxesUpdateParams {
  mailboxName: string;
  oldMessages: number;
  newMessages: number;
}

/** Parameters of `mailboxes.delete` (DELETE /mailboxes/{mailboxName}). */
export interface MailboxesDeleteParams {
  mailboxName: string;
}

/** Parameters of `events.eventWebsocket` (GET /events). */
export interface EventsEventWebsocketParams {
  app: string | readonly string[];
  subscribeAll?: boolean;
}

/** Parameters of `events.userEvent` (POST /events/user/{eventName}). */
export interface EventsUserEventParams {
  eventName: string;
  application: string;
  source?: string | readonly string[];
  variables?: Record<string, unknown>;
}

/** Parameters of `events.claimChannel` (POST /events/claim). */
export interface EventsClaimChannelParams {
  channelId: string;
  application: string;
}

/** Parameters of `applications.list` (GET /applications). */
export interface ApplicationsListParams {
}

/** Parameters of `applications.get` (GET /applications/{applicationName}). */
export interface ApplicationsGetParams {
  applicationName: string;
}

/** Parameters of `applications.subscribe` (POST /applications/{applicationName}/subscription). */
export interface ApplicationsSubscribeParams {
  applicationName: string;
  eventSource: string | readonly string[];
}

/** Parameters of `applications.unsubscribe` (DELETE /applications/{applicationName}/subscription). */
export interface ApplicationsUnsubscribeParams {
  applicationName: string;
  eventSource: string | readonly string[];
}

/** Parameters of `applications.filter` (PUT /applications/{applicationName}/eventFilter). */
export interface ApplicationsFilterParams {
  applicationName: string;
  filter?: Record<string, unknown>;
}

/** The `asterisk` resource. */
export interface AsteriskApi {
  /** Reads a dynamic configuration object as a list of attribute tuples. */
  getObject(params: AsteriskGetObjectParams, options?: RequestOptions): Promise<ConfigTuple[]>;
  /** Creates or changes a dynamic configuration object in its backing store. */
  updateObject(params: AsteriskUpdateObjectParams, options?: RequestOptions): Promise<ConfigTuple[]>;
  /** Removes a dynamic configuration object from its backing store. */
  deleteObject(params: AsteriskDeleteObjectParams, options?: RequestOptions): Promise<void>;
  /** Returns build, system, configuration and status facts about the server. */
  getInfo(params?: AsteriskGetInfoParams, options?: RequestOptions): Promise<AsteriskInfo>;
  /** Liveness check: answers pong with a timestamp and the server identifier. */
  ping(params?: AsteriskPingParams, options?: RequestOptions): Promise<AsteriskPing>;
  /** Lists the loadable modules and their state. */
  listModules(params?: AsteriskListModulesParams, options?: RequestOptions): Promise<Module[]>;
  /** Returns one loadable module. */
  getModule(params: AsteriskGetModuleParams, options?: RequestOptions): Promise<Module>;
  /** Loads a module that is not loaded yet. */
  loadModule(params: AsteriskLoadModuleParams, options?: RequestOptions): Promise<void>;
  /** Unloads a loaded module. */
  unloadModule(params: AsteriskUnloadModuleParams, options?: RequestOptions): Promise<void>;
  /** Reloads a loaded module. */
  reloadModule(params: AsteriskReloadModuleParams, options?: RequestOptions): Promise<void>;
  /** Lists the log channels and the levels each one records. */
  listLogChannels(params?: AsteriskListLogChannelsParams, options?: RequestOptions): Promise<LogChannel[]>;
  /** Creates a log channel recording the given comma separated levels. */
  addLog(params: AsteriskAddLogParams, options?: RequestOptions): Promise<void>;
  /** Removes a log channel. */
  deleteLog(params: AsteriskDeleteLogParams, options?: RequestOptions): Promise<void>;
  /** Rotates the file behind a log channel. */
  rotateLog(params: AsteriskRotateLogParams, options?: RequestOptions): Promise<void>;
  /** Reads a global variable or dialplan function. */
  getGlobalVar(params: AsteriskGetGlobalVarParams, options?: RequestOptions): Promise<Variable>;
  /** Sets a global variable. */
  setGlobalVar(params: AsteriskSetGlobalVarParams, options?: RequestOptions): Promise<void>;
}

/** The `endpoints` resource. */
export interface EndpointsApi {
  /** Lists every endpoint. */
  list(params?: EndpointsListParams, options?: RequestOptions): Promise<Endpoint[]>;
  /** Sends an out-of-call text message to a technology URI. */
  sendMessage(params: EndpointsSendMessageParams, options?: RequestOptions): Promise<void>;
  /** Asks an endpoint or URI to refer to another target. @since interface >1.10.0 */
  refer(params: EndpointsReferParams, options?: RequestOptions): Promise<void>;
  /** Lists the endpoints of one technology. */
  listByTech(params: EndpointsListByTechParams, options?: RequestOptions): Promise<Endpoint[]>;
  /** Returns one endpoint. */
  get(params: EndpointsGetParams, options?: RequestOptions): Promise<Endpoint>;
  /** Sends an out-of-call text message to one endpoint. */
  sendMessageToEndpoint(params: EndpointsSendMessageToEndpointParams, options?: RequestOptions): Promise<void>;
  /** Asks one endpoint to refer to another target. @since interface >1.10.0 */
  referToEndpoint(params: EndpointsReferToEndpointParams, options?: RequestOptions): Promise<void>;
}

/** The `channels` resource. */
export interface ChannelsApi {
  /** Lists every channel on the server. */
  list(params?: ChannelsListParams, options?: RequestOptions): Promise<Channel[]>;
  /** Creates an outgoing channel into an application or into the dialplan. */
  originate(params: ChannelsOriginateParams, options?: RequestOptions): Promise<Channel>;
  /** Creates a channel without dialing it (dial it later). @since interface >1.10.0 */
  create(params: ChannelsCreateParams, options?: RequestOptions): Promise<Channel>;
  /** Returns one channel. */
  get(params: ChannelsGetParams, options?: RequestOptions): Promise<Channel>;
  /** Originates a channel whose id is given in the path. */
  originateWithId(params: ChannelsOriginateWithIdParams, options?: RequestOptions): Promise<Channel>;
  /** Hangs a channel up, optionally with a cause. */
  hangup(params: ChannelsHangupParams, options?: RequestOptions): Promise<void>;
  /** Leaves the application and resumes the dialplan at a location or label. */
  continueInDialplan(params: ChannelsContinueInDialplanParams, options?: RequestOptions): Promise<void>;
  /** Moves a channel from its current application to another one. */
  move(params: ChannelsMoveParams, options?: RequestOptions): Promise<void>;
  /** Sends a channel to another endpoint of the same technology. */
  redirect(params: ChannelsRedirectParams, options?: RequestOptions): Promise<void>;
  /** Answers a channel. */
  answer(params: ChannelsAnswerParams, options?: RequestOptions): Promise<void>;
  /** Starts locally generated ringing on a channel. */
  ring(params: ChannelsRingParams, options?: RequestOptions): Promise<void>;
  /** Stops locally generated ringing. */
  ringStop(params: ChannelsRingStopParams, options?: RequestOptions): Promise<void>;
  /** Signals call progress (early media) on a channel. @since interface >1.10.0 */
  progress(params: ChannelsProgressParams, options?: RequestOptions): Promise<void>;
  /** Sends DTMF digits on a channel. */
  sendDTMF(params: ChannelsSendDTMFParams, options?: RequestOptions): Promise<void>;
  /** Mutes a channel in one or both directions. */
  mute(params: ChannelsMuteParams, options?: RequestOptions): Promise<void>;
  /** Unmutes a channel in one or both directions. */
  unmute(params: ChannelsUnmuteParams, options?: RequestOptions): Promise<void>;
  /** Puts a channel on hold. */
  hold(params: ChannelsHoldParams, options?: RequestOptions): Promise<void>;
  /** Takes a channel off hold. */
  unhold(params: ChannelsUnholdParams, options?: RequestOptions): Promise<void>;
  /** Plays music on hold to a channel. */
  startMoh(params: ChannelsStartMohParams, options?: RequestOptions): Promise<void>;
  /** Stops music on hold on a channel. */
  stopMoh(params: ChannelsStopMohParams, options?: RequestOptions): Promise<void>;
  /** Plays silence to a channel until stopped or until other media starts. */
  startSilence(params: ChannelsStartSilenceParams, options?: RequestOptions): Promise<void>;
  /** Stops the silence generator. */
  stopSilence(params: ChannelsStopSilenceParams, options?: RequestOptions): Promise<void>;
  /** Plays one or more media URIs to a channel. */
  play(params: ChannelsPlayParams, options?: RequestOptions): Promise<Playback>;
  /** Plays media to a channel with a caller-chosen playback id. */
  playWithId(params: ChannelsPlayWithIdParams, options?: RequestOptions): Promise<Playback>;
  /** Starts a live recording of a channel. */
  record(params: ChannelsRecordParams, options?: RequestOptions): Promise<LiveRecording>;
  /** Reads a channel variable or dialplan function. */
  getChannelVar(params: ChannelsGetChannelVarParams, options?: RequestOptions): Promise<Variable>;
  /** Sets a channel variable or dialplan function. */
  setChannelVar(params: ChannelsSetChannelVarParams, options?: RequestOptions): Promise<void>;
  /** Reads several channel variables or functions at once. @since interface >1.10.0 */
  getChannelVars(params: ChannelsGetChannelVarsParams, options?: RequestOptions): Promise<Variables>;
  /** Sets several channel variables or functions at once. @since interface >1.10.0 */
  setChannelVars(params: ChannelsSetChannelVarsParams, options?: RequestOptions): Promise<void>;
  /** Creates a snoop channel that spies on and/or whispers to a channel. */
  snoopChannel(params: ChannelsSnoopChannelParams, options?: RequestOptions): Promise<Channel>;
  /** Creates a snoop channel with a caller-chosen id. */
  snoopChannelWithId(params: ChannelsSnoopChannelWithIdParams, options?: RequestOptions): Promise<Channel>;
  /** Dials a channel made with create. @since interface >1.10.0 */
  dial(params: ChannelsDialParams, options?: RequestOptions): Promise<void>;
  /** Returns RTP statistics of a channel. */
  rtpstatistics(params: ChannelsRtpstatisticsParams, options?: RequestOptions): Promise<RTPstat>;
  /** Creates a channel that streams media to an external host. @since interface >1.10.0 */
  externalMedia(params: ChannelsExternalMediaParams, options?: RequestOptions): Promise<Channel>;
  /** Tells a channel how a transfer it asked for is going. @since interface >1.10.0 */
  transfer_progress(params: ChannelsTransferProgressParams, options?: RequestOptions): Promise<void>;
}

/** The `bridges` resource. */
export interface BridgesApi {
  /** Lists every bridge on the server. */
  list(params?: BridgesListParams, options?: RequestOptions): Promise<Bridge[]>;
  /** Creates a bridge; the id may be picked by the caller. */
  create(params?: BridgesCreateParams, options?: RequestOptions): Promise<Bridge>;
  /** Creates a bridge with the id in the path, or changes an existing one. */
  createWithId(params: BridgesCreateWithIdParams, options?: RequestOptions): Promise<Bridge>;
  /** Returns one bridge. */
  get(params: BridgesGetParams, options?: RequestOptions): Promise<Bridge>;
  /** Destroys a bridge; its channels stay in their application. */
  destroy(params: BridgesDestroyParams, options?: RequestOptions): Promise<void>;
  /** Reads a bridge variable or function. @since interface >1.10.0 */
  getBridgeVar(params: BridgesGetBridgeVarParams, options?: RequestOptions): Promise<Variable>;
  /** Sets a bridge variable or function. @since interface >1.10.0 */
  setBridgeVar(params: BridgesSetBridgeVarParams, options?: RequestOptions): Promise<void>;
  /** Reads several bridge variables or functions at once. @since interface >1.10.0 */
  getBridgeVars(params: BridgesGetBridgeVarsParams, options?: RequestOptions): Promise<Variables>;
  /** Sets several bridge variables or functions at once. @since interface >1.10.0 */
  setBridgeVars(params: BridgesSetBridgeVarsParams, options?: RequestOptions): Promise<void>;
  /** Puts one or more channels into a bridge, optionally with a role. */
  addChannel(params: BridgesAddChannelParams, options?: RequestOptions): Promise<void>;
  /** Takes one or more channels out of a bridge. */
  removeChannel(params: BridgesRemoveChannelParams, options?: RequestOptions): Promise<void>;
  /** Locks the video of a multi-party bridge to one channel. */
  setVideoSource(params: BridgesSetVideoSourceParams, options?: RequestOptions): Promise<void>;
  /** Drops the explicit video source; the bridge follows the talker again. */
  clearVideoSource(params: BridgesClearVideoSourceParams, options?: RequestOptions): Promise<void>;
  /** Plays music on hold into a bridge. */
  startMoh(params: BridgesStartMohParams, options?: RequestOptions): Promise<void>;
  /** Stops music on hold in a bridge. */
  stopMoh(params: BridgesStopMohParams, options?: RequestOptions): Promise<void>;
  /** Plays media into a bridge; queued behind a playback already running. */
  play(params: BridgesPlayParams, options?: RequestOptions): Promise<Playback>;
  /** Plays media into a bridge with a caller-chosen playback id. */
  playWithId(params: BridgesPlayWithIdParams, options?: RequestOptions): Promise<Playback>;
  /** Starts a live recording of the mixed audio of a bridge. */
  record(params: BridgesRecordParams, options?: RequestOptions): Promise<LiveRecording>;
}

/** The `recordings` resource. */
export interface RecordingsApi {
  /** Lists the finished recordings. */
  listStored(params?: RecordingsListStoredParams, options?: RequestOptions): Promise<StoredRecording[]>;
  /** Returns one stored recording. */
  getStored(params: RecordingsGetStoredParams, options?: RequestOptions): Promise<StoredRecording>;
  /** Deletes a stored recording. */
  deleteStored(params: RecordingsDeleteStoredParams, options?: RequestOptions): Promise<void>;
  /** Downloads the audio file of a stored recording. @since interface >1.10.0 */
  getStoredFile(params: RecordingsGetStoredFileParams, options?: RequestOptions): Promise<Uint8Array>;
  /** Copies a stored recording to a new name (may include a relative directory). */
  copyStored(params: RecordingsCopyStoredParams, options?: RequestOptions): Promise<StoredRecording>;
  /** Returns a recording in progress. */
  getLive(params: RecordingsGetLiveParams, options?: RequestOptions): Promise<LiveRecording>;
  /** Stops a live recording and throws it away. */
  cancel(params: RecordingsCancelParams, options?: RequestOptions): Promise<void>;
  /** Stops a live recording and keeps it. */
  stop(params: RecordingsStopParams, options?: RequestOptions): Promise<void>;
  /** Pauses a live recording. */
  pause(params: RecordingsPauseParams, options?: RequestOptions): Promise<void>;
  /** Resumes a paused live recording. */
  unpause(params: RecordingsUnpauseParams, options?: RequestOptions): Promise<void>;
  /** Records silence instead of audio until unmuted. */
  mute(params: RecordingsMuteParams, options?: RequestOptions): Promise<void>;
  /** Records audio again after a mute. */
  unmute(params: RecordingsUnmuteParams, options?: RequestOptions): Promise<void>;
}

/** The `sounds` resource. */
export interface SoundsApi {
  /** Lists the sounds installed on the server. */
  list(params?: SoundsListParams, options?: RequestOptions): Promise<Sound[]>;
  /** Returns one sound and its languages and formats. */
  get(params: SoundsGetParams, options?: RequestOptions): Promise<Sound>;
}

/** The `playbacks` resource. */
export interface PlaybacksApi {
  /** Returns one playback. */
  get(params: PlaybacksGetParams, options?: RequestOptions): Promise<Playback>;
  /** Stops a playback. */
  stop(params: PlaybacksStopParams, options?: RequestOptions): Promise<void>;
  /** Pauses, resumes, restarts, rewinds or fast-forwards a playback. */
  control(params: PlaybacksControlParams, options?: RequestOptions): Promise<void>;
}

/** The `deviceStates` resource. */
export interface DeviceStatesApi {
  /** Lists the device states this interface controls. */
  list(params?: DeviceStatesListParams, options?: RequestOptions): Promise<DeviceState[]>;
  /** Returns the state of any device. */
  get(params: DeviceStatesGetParams, options?: RequestOptions): Promise<DeviceState>;
  /** Sets the state of a controlled device (name starting with Stasis:), creating it. */
  update(params: DeviceStatesUpdateParams, options?: RequestOptions): Promise<void>;
  /** Removes a controlled device. */
  delete(params: DeviceStatesDeleteParams, options?: RequestOptions): Promise<void>;
}

/** The `mailboxes` resource. */
export interface MailboxesApi {
  /** Lists the externally controlled mailboxes. */
  list(params?: MailboxesListParams, options?: RequestOptions): Promise<Mailbox[]>;
  /** Returns one mailbox. */
  get(params: MailboxesGetParams, options?: RequestOptions): Promise<Mailbox>;
  /** Sets the message counts of a mailbox, creating it. */
  update(params: MailboxesUpdateParams, options?: RequestOptions): Promise<void>;
  /** Removes a mailbox. */
  delete(params: MailboxesDeleteParams, options?: RequestOptions): Promise<void>;
}

/** The `events` resource. */
export interface EventsApi {
  /** Raises a user-defined event to an application. */
  userEvent(params: EventsUserEventParams, options?: RequestOptions): Promise<void>;
  /** Claims a broadcast channel for this application. @since interface >1.10.0 */
  claimChannel(params: EventsClaimChannelParams, options?: RequestOptions): Promise<void>;
}

/** The `applications` resource. */
export interface ApplicationsApi {
  /** Lists every application registered on the server. */
  list(params?: ApplicationsListParams, options?: RequestOptions): Promise<Application[]>;
  /** Returns one application and what it is subscribed to. */
  get(params: ApplicationsGetParams, options?: RequestOptions): Promise<Application>;
  /** Adds event sources (channel:, bridge:, endpoint:, deviceState:) to an application. */
  subscribe(params: ApplicationsSubscribeParams, options?: RequestOptions): Promise<Application>;
  /** Removes event sources from an application. */
  unsubscribe(params: ApplicationsUnsubscribeParams, options?: RequestOptions): Promise<Application>;
  /** Sets which event types an application receives (allowed / disallowed lists). */
  filter(params: ApplicationsFilterParams, options?: RequestOptions): Promise<Application>;
}

/** A `channels` handle bound to channelId. */
export interface ChannelHandle {
  readonly channelId: string;
  /** Returns one channel. */
  get(params?: Omit<ChannelsGetParams, "channelId">, options?: RequestOptions): Promise<Channel>;
  /** Originates a channel whose id is given in the path. */
  originateWithId(params: Omit<ChannelsOriginateWithIdParams, "channelId">, options?: RequestOptions): Promise<Channel>;
  /** Hangs a channel up, optionally with a cause. */
  hangup(params?: Omit<ChannelsHangupParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Leaves the application and resumes the dialplan at a location or label. */
  continueInDialplan(params?: Omit<ChannelsContinueInDialplanParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Moves a channel from its current application to another one. */
  move(params: Omit<ChannelsMoveParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Sends a channel to another endpoint of the same technology. */
  redirect(params: Omit<ChannelsRedirectParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Answers a channel. */
  answer(params?: Omit<ChannelsAnswerParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Starts locally generated ringing on a channel. */
  ring(params?: Omit<ChannelsRingParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Stops locally generated ringing. */
  ringStop(params?: Omit<ChannelsRingStopParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Signals call progress (early media) on a channel. @since interface >1.10.0 */
  progress(params?: Omit<ChannelsProgressParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Sends DTMF digits on a channel. */
  sendDTMF(params?: Omit<ChannelsSendDTMFParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Mutes a channel in one or both directions. */
  mute(params?: Omit<ChannelsMuteParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Unmutes a channel in one or both directions. */
  unmute(params?: Omit<ChannelsUnmuteParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Puts a channel on hold. */
  hold(params?: Omit<ChannelsHoldParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Takes a channel off hold. */
  unhold(params?: Omit<ChannelsUnholdParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Plays music on hold to a channel. */
  startMoh(params?: Omit<ChannelsStartMohParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Stops music on hold on a channel. */
  stopMoh(params?: Omit<ChannelsStopMohParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Plays silence to a channel until stopped or until other media starts. */
  startSilence(params?: Omit<ChannelsStartSilenceParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Stops the silence generator. */
  stopSilence(params?: Omit<ChannelsStopSilenceParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Plays one or more media URIs to a channel. */
  play(params: Omit<ChannelsPlayParams, "channelId">, options?: RequestOptions): Promise<Playback>;
  /** Plays media to a channel with a caller-chosen playback id. */
  playWithId(params: Omit<ChannelsPlayWithIdParams, "channelId">, options?: RequestOptions): Promise<Playback>;
  /** Starts a live recording of a channel. */
  record(params: Omit<ChannelsRecordParams, "channelId">, options?: RequestOptions): Promise<LiveRecording>;
  /** Reads a channel variable or dialplan function. */
  getChannelVar(params: Omit<ChannelsGetChannelVarParams, "channelId">, options?: RequestOptions): Promise<Variable>;
  /** Sets a channel variable or dialplan function. */
  setChannelVar(params: Omit<ChannelsSetChannelVarParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Reads several channel variables or functions at once. @since interface >1.10.0 */
  getChannelVars(params: Omit<ChannelsGetChannelVarsParams, "channelId">, options?: RequestOptions): Promise<Variables>;
  /** Sets several channel variables or functions at once. @since interface >1.10.0 */
  setChannelVars(params: Omit<ChannelsSetChannelVarsParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Creates a snoop channel that spies on and/or whispers to a channel. */
  snoopChannel(params: Omit<ChannelsSnoopChannelParams, "channelId">, options?: RequestOptions): Promise<Channel>;
  /** Creates a snoop channel with a caller-chosen id. */
  snoopChannelWithId(params: Omit<ChannelsSnoopChannelWithIdParams, "channelId">, options?: RequestOptions): Promise<Channel>;
  /** Dials a channel made with create. @since interface >1.10.0 */
  dial(params?: Omit<ChannelsDialParams, "channelId">, options?: RequestOptions): Promise<void>;
  /** Returns RTP statistics of a channel. */
  rtpstatistics(params?: Omit<ChannelsRtpstatisticsParams, "channelId">, options?: RequestOptions): Promise<RTPstat>;
  /** Tells a channel how a transfer it asked for is going. @since interface >1.10.0 */
  transfer_progress(params: Omit<ChannelsTransferProgressParams, "channelId">, options?: RequestOptions): Promise<void>;
}

/** A `bridges` handle bound to bridgeId. */
export interface BridgeHandle {
  readonly bridgeId: string;
  /** Creates a bridge with the id in the path, or changes an existing one. */
  createWithId(params?: Omit<BridgesCreateWithIdParams, "bridgeId">, options?: RequestOptions): Promise<Bridge>;
  /** Returns one bridge. */
  get(params?: Omit<BridgesGetParams, "bridgeId">, options?: RequestOptions): Promise<Bridge>;
  /** Destroys a bridge; its channels stay in their application. */
  destroy(params?: Omit<BridgesDestroyParams, "bridgeId">, options?: RequestOptions): Promise<void>;
  /** Reads a bridge variable or function. @since interface >1.10.0 */
  getBridgeVar(params: Omit<BridgesGetBridgeVarParams, "bridgeId">, options?: RequestOptions): Promise<Variable>;
  /** Sets a bridge variable or function. @since interface >1.10.0 */
  setBridgeVar(params: Omit<BridgesSetBridgeVarParams, "bridgeId">, options?: RequestOptions): Promise<void>;
  /** Reads several bridge variables or functions at once. @since interface >1.10.0 */
  getBridgeVars(params: Omit<BridgesGetBridgeVarsParams, "bridgeId">, options?: RequestOptions): Promise<Variables>;
  /** Sets several bridge variables or functions at once. @since interface >1.10.0 */
  setBridgeVars(params: Omit<BridgesSetBridgeVarsParams, "bridgeId">, options?: RequestOptions): Promise<void>;
  /** Puts one or more channels into a bridge, optionally with a role. */
  addChannel(params: Omit<BridgesAddChannelParams, "bridgeId">, options?: RequestOptions): Promise<void>;
  /** Takes one or more channels out of a bridge. */
  removeChannel(params: Omit<BridgesRemoveChannelParams, "bridgeId">, options?: RequestOptions): Promise<void>;
  /** Locks the video of a multi-party bridge to one channel. */
  setVideoSource(params: Omit<BridgesSetVideoSourceParams, "bridgeId">, options?: RequestOptions): Promise<void>;
  /** Drops the explicit video source; the bridge follows the talker again. */
  clearVideoSource(params?: Omit<BridgesClearVideoSourceParams, "bridgeId">, options?: RequestOptions): Promise<void>;
  /** Plays music on hold into a bridge. */
  startMoh(params?: Omit<BridgesStartMohParams, "bridgeId">, options?: RequestOptions): Promise<void>;
  /** Stops music on hold in a bridge. */
  stopMoh(params?: Omit<BridgesStopMohParams, "bridgeId">, options?: RequestOptions): Promise<void>;
  /** Plays media into a bridge; queued behind a playback already running. */
  play(params: Omit<BridgesPlayParams, "bridgeId">, options?: RequestOptions): Promise<Playback>;
  /** Plays media into a bridge with a caller-chosen playback id. */
  playWithId(params: Omit<BridgesPlayWithIdParams, "bridgeId">, options?: RequestOptions): Promise<Playback>;
  /** Starts a live recording of the mixed audio of a bridge. */
  record(params: Omit<BridgesRecordParams, "bridgeId">, options?: RequestOptions): Promise<LiveRecording>;
}

/** A `playbacks` handle bound to playbackId. */
export interface PlaybackHandle {
  readonly playbackId: string;
  /** Returns one playback. */
  get(params?: Omit<PlaybacksGetParams, "playbackId">, options?: RequestOptions): Promise<Playback>;
  /** Stops a playback. */
  stop(params?: Omit<PlaybacksStopParams, "playbackId">, options?: RequestOptions): Promise<void>;
  /** Pauses, resumes, restarts, rewinds or fast-forwards a playback. */
  control(params: Omit<PlaybacksControlParams, "playbackId">, options?: RequestOptions): Promise<void>;
}

/** A `recordings` handle bound to recordingName. */
export interface RecordingHandle {
  readonly recordingName: string;
  /** Returns one stored recording. */
  getStored(params?: Omit<RecordingsGetStoredParams, "recordingName">, options?: RequestOptions): Promise<StoredRecording>;
  /** Deletes a stored recording. */
  deleteStored(params?: Omit<RecordingsDeleteStoredParams, "recordingName">, options?: RequestOptions): Promise<void>;
  /** Downloads the audio file of a stored recording. @since interface >1.10.0 */
  getStoredFile(params?: Omit<RecordingsGetStoredFileParams, "recordingName">, options?: RequestOptions): Promise<Uint8Array>;
  /** Copies a stored recording to a new name (may include a relative directory). */
  copyStored(params: Omit<RecordingsCopyStoredParams, "recordingName">, options?: RequestOptions): Promise<StoredRecording>;
  /** Returns a recording in progress. */
  getLive(params?: Omit<RecordingsGetLiveParams, "recordingName">, options?: RequestOptions): Promise<LiveRecording>;
  /** Stops a live recording and throws it away. */
  cancel(params?: Omit<RecordingsCancelParams, "recordingName">, options?: RequestOptions): Promise<void>;
  /** Stops a live recording and keeps it. */
  stop(params?: Omit<RecordingsStopParams, "recordingName">, options?: RequestOptions): Promise<void>;
  /** Pauses a live recording. */
  pause(params?: Omit<RecordingsPauseParams, "recordingName">, options?: RequestOptions): Promise<void>;
  /** Resumes a paused live recording. */
  unpause(params?: Omit<RecordingsUnpauseParams, "recordingName">, options?: RequestOptions): Promise<void>;
  /** Records silence instead of audio until unmuted. */
  mute(params?: Omit<RecordingsMuteParams, "recordingName">, options?: RequestOptions): Promise<void>;
  /** Records audio again after a mute. */
  unmute(params?: Omit<RecordingsUnmuteParams, "recordingName">, options?: RequestOptions): Promise<void>;
}

/** A `endpoints` handle bound to tech + resource. */
export interface EndpointHandle {
  readonly tech: string;
  readonly resource: string;
  /** Returns one endpoint. */
  get(params?: Omit<EndpointsGetParams, "tech" | "resource">, options?: RequestOptions): Promise<Endpoint>;
  /** Sends an out-of-call text message to one endpoint. */
  sendMessageToEndpoint(params: Omit<EndpointsSendMessageToEndpointParams, "tech" | "resource">, options?: RequestOptions): Promise<void>;
  /** Asks one endpoint to refer to another target. @since interface >1.10.0 */
  referToEndpoint(params: Omit<EndpointsReferToEndpointParams, "tech" | "resource">, options?: RequestOptions): Promise<void>;
}

/** A `deviceStates` handle bound to deviceName. */
export interface DeviceStateHandle {
  readonly deviceName: string;
  /** Returns the state of any device. */
  get(params?: Omit<DeviceStatesGetParams, "deviceName">, options?: RequestOptions): Promise<DeviceState>;
  /** Sets the state of a controlled device (name starting with Stasis:), creating it. */
  update(params: Omit<DeviceStatesUpdateParams, "deviceName">, options?: RequestOptions): Promise<void>;
  /** Removes a controlled device. */
  delete(params?: Omit<DeviceStatesDeleteParams, "deviceName">, options?: RequestOptions): Promise<void>;
}

/** A `mailboxes` handle bound to mailboxName. */
export interface MailboxHandle {
  readonly mailboxName: string;
  /** Returns one mailbox. */
  get(params?: Omit<MailboxesGetParams, "mailboxName">, options?: RequestOptions): Promise<Mailbox>;
  /** Sets the message counts of a mailbox, creating it. */
  update(params: Omit<MailboxesUpdateParams, "mailboxName">, options?: RequestOptions): Promise<void>;
  /** Removes a mailbox. */
  delete(params?: Omit<MailboxesDeleteParams, "mailboxName">, options?: RequestOptions): Promise<void>;
}

/** A `applications` handle bound to applicationName. */
export interface ApplicationHandle {
  readonly applicationName: string;
  /** Returns one application and what it is subscribed to. */
  get(params?: Omit<ApplicationsGetParams, "applicationName">, options?: RequestOptions): Promise<Application>;
  /** Adds event sources (channel:, bridge:, endpoint:, deviceState:) to an application. */
  subscribe(params: Omit<ApplicationsSubscribeParams, "applicationName">, options?: RequestOptions): Promise<Application>;
  /** Removes event sources from an application. */
  unsubscribe(params: Omit<ApplicationsUnsubscribeParams, "applicationName">, options?: RequestOptions): Promise<Application>;
  /** Sets which event types an application receives (allowed / disallowed lists). */
  filter(params?: Omit<ApplicationsFilterParams, "applicationName">, options?: RequestOptions): Promise<Application>;
}

/** A `sounds` handle bound to soundId. */
export interface SoundHandle {
  readonly soundId: string;
  /** Returns one sound and its languages and formats. */
  get(params?: Omit<SoundsGetParams, "soundId">, options?: RequestOptions): Promise<Sound>;
}

/** A `asterisk` handle bound to moduleName. */
export interface ModuleHandle {
  readonly moduleName: string;
  /** Returns one loadable module. */
  getModule(params?: Omit<AsteriskGetModuleParams, "moduleName">, options?: RequestOptions): Promise<Module>;
  /** Loads a module that is not loaded yet. */
  loadModule(params?: Omit<AsteriskLoadModuleParams, "moduleName">, options?: RequestOptions): Promise<void>;
  /** Unloads a loaded module. */
  unloadModule(params?: Omit<AsteriskUnloadModuleParams, "moduleName">, options?: RequestOptions): Promise<void>;
  /** Reloads a loaded module. */
  reloadModule(params?: Omit<AsteriskReloadModuleParams, "moduleName">, options?: RequestOptions): Promise<void>;
}

/** A `asterisk` handle bound to logChannelName. */
export interface LogChannelHandle {
  readonly logChannelName: string;
  /** Creates a log channel recording the given comma separated levels. */
  addLog(params: Omit<AsteriskAddLogParams, "logChannelName">, options?: RequestOptions): Promise<void>;
  /** Removes a log channel. */
  deleteLog(params?: Omit<AsteriskDeleteLogParams, "logChannelName">, options?: RequestOptions): Promise<void>;
  /** Rotates the file behind a log channel. */
  rotateLog(params?: Omit<AsteriskRotateLogParams, "logChannelName">, options?: RequestOptions): Promise<void>;
}
