/**
 * @ringflow/runtime: applications and call sessions. One XState actor per call, driven by the
 * call's RxJS event stream, issuing REST actions through the typed client.
 */
export * from './actions/index.ts';
export { Application, createApplication } from './application/createApplication.ts';
export type {
  ApplicationOptions,
  CallInfo,
  CreateBridgeOptions,
  OriginateOptions,
  RuntimeCounters,
} from './application/createApplication.ts';
export type { CleanupRetryOptions } from './application/CleanupRetry.ts';
export type { GapReport } from './recovery/GapReport.ts';
export { LEAVING_OPERATIONS, takesChannelOut } from './session/requestEffects.ts';
export { DEFAULT_WATCHDOG, type WatchdogOptions } from './recovery/CallWatchdog.ts';
export { isRecovered, RECOVERED, type Recovery, type RecoveryScope } from './recovery/recoverCall.ts';
export { askServer, listedServer, type ServerView } from './recovery/ServerView.ts';
export { installShutdownHandlers } from './application/installShutdownHandlers.ts';
export type { ShutdownOptions } from './application/installShutdownHandlers.ts';
/** Re-exported from the client, where the reading of `Stasis()` data lives. */
export { parseStasisAppData, type StasisAppData } from '@ringflow/client';
export type { ServerOptions } from './application/ServerOptions.ts';
export type { ListenOptions } from './application/ListenOptions.ts';
export type { BroadcastClaimOptions } from './application/BroadcastClaims.ts';
export { BridgeSession, bridgeMachine } from './bridge/BridgeSession.ts';
export type {
  BridgeContext,
  BridgeSessionOptions,
  QueuedPlayback,
  VideoSourceMode,
} from './bridge/BridgeSession.ts';
export type {
  CallDrainingEvent,
  CallEvent,
  CallGoneEvent,
  CallHandle,
  CallInput,
  CallRequestOptions,
  ResourceCleanup,
  RuntimeCallEvent,
  ServerInfo,
} from './call/CallHandle.ts';
export { nextEvent } from './call/nextEvent.ts';
export type { StepFailure } from './call/StepFailure.ts';
export type { OperationId, ParamsOf, ResultOf } from './call/OperationId.ts';
export { withScope } from './call/withScope.ts';
export { inProcessEventTransport } from './inProcess/inProcessEventTransport.ts';
export type { InProcessEventTransport } from './inProcess/inProcessEventTransport.ts';
export { inProcessRestTransport } from './inProcess/inProcessRestTransport.ts';
export type { InProcessServer } from './inProcess/InProcessServer.ts';
export { createRuntimeLogger, REDACTED_PATHS, safeUrl } from './logging/createRuntimeLogger.ts';
export * from './agent/index.ts';
export * from './metrics/index.ts';
export * from './http/index.ts';
export { CallSession } from './session/CallSession.ts';
export type { CallEnded, SessionOutcome } from './session/CallEnded.ts';
export {
  CALL_END_STATUSES,
  type CallEnd,
  type CallEndStatus,
  callEndOf,
  ENDED_BY,
  type EndedBy,
  formatCallEnd,
} from './session/CallEnd.ts';
export type { DigitBuffer } from './session/DigitBuffer.ts';
export type { ResumeNotes } from './session/ResumeNotes.ts';
export { isCallGone } from '@ringflow/client';
export * from './engine/index.ts';
export { MemoryCallStore } from './snapshot/CallRecord.ts';
export type { CallRecord, CallStore } from './snapshot/CallRecord.ts';
export type { OwnedResource } from './session/OwnedResources.ts';
export { CallQueue, QUEUE_NO_AGENTS, QUEUE_OFFER } from './queue/CallQueue.ts';
export type { QueueMember, QueueNoAgentsEvent, QueueObserver, QueueOfferEvent } from './queue/CallQueue.ts';
export { RING_STRATEGIES, QUEUE_EXITS } from './queue/QueueState.ts';
export { LocalQueueStore } from './queue/LocalQueueStore.ts';
export { SharedQueueStore } from './queue/SharedQueueStore.ts';
export type { SharedQueueStoreOptions } from './queue/SharedQueueStore.ts';
export { MemoryQueueRevisions } from './queue/MemoryQueueRevisions.ts';
export type { QueueCell, QueueStore } from './queue/QueueStore.ts';
export type { QueueRevisions, StoredQueueStep } from './queue/QueueRevisions.ts';
export { AGENT_DEVICE_STATE, agentDevice, agentFromDevice } from './queue/agentDevice.ts';
export type { AgentAction, AgentStatus } from './queue/agentDevice.ts';
export * from './speech/index.ts';
export type {
  AgentActivity,
  AgentState,
  QueueExit,
  QueueChange,
  QueueNotice,
  QueueSettings,
  QueueState,
  QueueStats,
  QueueStep,
  RingStrategy,
  WaitingCaller,
} from './queue/QueueState.ts';
export * from './campaign/index.ts';
