/**
 * @ringflow/cluster: cluster mode on NATS JetStream. Call records live in a JetStream key-value
 * bucket shared by every process, with ownership by revision, so that a process that dies (or
 * loses a call's connection) hands its calls to the others mid-flow.
 */
export { JetStreamCallStore } from './JetStreamCallStore.ts';
export type { JetStreamCallStoreOptions } from './JetStreamCallStore.ts';
export { ClassicCluster } from './ClassicCluster.ts';
export type { ClassicClusterOptions } from './ClassicCluster.ts';
export { type ObservedClassicCluster, observeClassicCluster } from './classic/classicClusterMetrics.ts';
export { EventConnectionHolder } from './EventConnectionHolder.ts';
export { JetStreamEventFeed } from './JetStreamEventFeed.ts';
export { KvLease } from './KvLease.ts';
export { HolderElection } from './HolderElection.ts';
export type { HolderElectionOptions } from './HolderElection.ts';
export type { KvLeaseOptions } from './KvLease.ts';
export { WorkerDirectory } from './WorkerDirectory.ts';
export { EVENTS_STREAM, eventSubject } from './EventSubjects.ts';
export { NatsHealth } from './NatsHealth.ts';
export { isNatsUnavailable, retryWhileUnavailable } from './retryWhileUnavailable.ts';
export { natsToken } from './natsToken.ts';
export { AssigningRestTransport } from './AssigningRestTransport.ts';
export { JetStreamQueueRevisions } from './queue/JetStreamQueueRevisions.ts';
export type { JetStreamQueueRevisionsOptions } from './queue/JetStreamQueueRevisions.ts';
