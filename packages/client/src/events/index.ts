/**
 * The event stream: one WebSocket per server for one or more applications, exposed as RxJS
 * observables, with reconnects, liveness checks and operators to pick events by type and resource.
 */
export { createEventStream } from './createEventStream.ts';
export type { EventStream, EventStreamOptions } from './createEventStream.ts';
export type { ConnectionState, DisconnectReason, EventGap, EventStreamProblem } from './ConnectionState.ts';
export { buildEventStreamRequest } from './buildEventStreamRequest.ts';
export type { EventStreamRequest, EventStreamTarget } from './buildEventStreamRequest.ts';
export { backoffDelay, DEFAULT_BACKOFF, resolveBackoff } from './backoff.ts';
export type { BackoffSettings } from './backoff.ts';
export type {
  EventTransport,
  EventTransportConnection,
  EventTransportHandlers,
  EventTransportRequest,
} from './EventTransport.ts';
export { WsTransport } from './WsTransport.ts';
export type { WsTransportOptions } from './WsTransport.ts';
export { HandshakeRejectedError } from './HandshakeRejectedError.ts';
export { MalformedFrameError } from './MalformedFrameError.ts';
export type { MalformedFrameReason } from './MalformedFrameError.ts';
export { parseEventFrame } from './parseEventFrame.ts';
export type { FrameParseResult } from './parseEventFrame.ts';
export type { EventOfType, KnownMessageType, StreamEvent, UnknownEvent } from './StreamEvent.ts';
export { isEventType, isKnownEvent } from './isKnownEvent.ts';
export { eventResources, parseTargetUri, refersTo, visitEventResources } from './eventResources.ts';
export type { ResourceKind, ResourceRef } from './eventResources.ts';
export { ofType } from './ofType.ts';
export {
  forBridge,
  forChannel,
  forDevice,
  forEndpoint,
  forPlayback,
  forRecording,
} from './resourceFilters.ts';
export { fromServer } from './fromServer.ts';
export { keyMatches, matchKey } from './matchKey.ts';
export type { EventKey } from './matchKey.ts';
export { listenForServers } from './listenForServers.ts';
export type {
  AcceptedServerSocket,
  ListenAccount,
  ListenForServersOptions,
  ServerSocketListener,
} from './listenForServers.ts';
export { EventSocketRestTransport } from './EventSocketRestTransport.ts';
