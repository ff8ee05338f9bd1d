/**
 * @ringflow/simulator: an in-memory server speaking the ARI interface, for tests and demos.
 * Reach it in process (`handle`, `connectEvents`) or over the wire (`startWireServer`).
 */
export { createSimulator, DEFAULT_ASTERISK_ID } from './createSimulator.ts';
export type { Simulator, SimulatorOptions } from './createSimulator.ts';
export type {
  EventConnection,
  EventConnectionRequest,
  SimRequest,
  SimResponse,
  SimulatedServer,
} from './transport.ts';
export { SimError } from './SimError.ts';
export { farEndForAttempt, parseFarEndConfig } from './world/FarEndBehaviour.ts';
export type { FarEndBehaviour, FarEndConfig } from './world/FarEndBehaviour.ts';
export { readSoundDirectory, wavDurationMs } from './facilities/readSoundDirectory.ts';
export { characterFiles, digitFiles, numberFiles } from './facilities/sayFiles.ts';
export type { SoundDirectory } from './facilities/readSoundDirectory.ts';
export { SimulatorDriver } from './driver/SimulatorDriver.ts';
export type { InboundCall, OutboundItem, WaitOptions } from './driver/SimulatorDriver.ts';
export type { PublishedEvent } from './events/EventBus.ts';
/** Re-exported from the client, where the timestamp format of the interface lives. */
export { formatTimestamp } from '@ringflow/client';
export { startWireServer } from './wire/index.ts';
export type { WireServer, WireServerOptions, WireUser } from './wire/index.ts';
export {
  DialplanSyntaxError,
  defaultDialplanPath,
  formatIssue,
  loadDefaultDialplan,
  loadDialplanFile,
  parseDialplan,
} from './dialplan/index.ts';
export type { Dialplan, DialplanIssue } from './dialplan/index.ts';
export { startOutboundWebSockets } from './outbound/startOutboundWebSockets.ts';
export type { OutboundWebSockets, OutboundWebSocketsOptions } from './outbound/startOutboundWebSockets.ts';
export type { OutboundConnectionConfig } from './outbound/OutboundConnectionConfig.ts';
export { dialWebSocket } from './outbound/OutboundSocket.ts';
export type { ApplicationDialer, ApplicationPipe } from './outbound/ApplicationPipe.ts';
export { connectInProcess } from './outbound/connectInProcess.ts';
export {
  createMediaPipePair,
  dialMediaWebSocket,
  MAX_MEDIA_MESSAGE_BYTES,
  MEDIA_PATH_PREFIX,
  QUEUE_LIMIT,
  XOFF_LEVEL,
  XON_LEVEL,
} from './media/index.ts';
export type {
  ExternalMediaWebSocketRequest,
  HeardAudio,
  IncomingMediaAnswer,
  MediaDialer,
  MediaDialRequest,
  MediaPipe,
  MediaSockets,
  MediaWebSocketClient,
  MediaWebSocketOptions,
} from './media/index.ts';
export type { InProcessListener, InProcessListenOptions } from './outbound/connectInProcess.ts';
