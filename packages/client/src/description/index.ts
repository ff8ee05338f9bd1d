import type { HttpMethod, ModelSpec, OperationSpec, ResourceName } from './spec.ts';
import { applicationsOperations } from './operations/applications.ts';
import { asteriskOperations } from './operations/asterisk.ts';
import { bridgesOperations } from './operations/bridges.ts';
import { channelsOperations } from './operations/channels.ts';
import { deviceStatesOperations } from './operations/deviceStates.ts';
import { endpointsOperations } from './operations/endpoints.ts';
import { eventsOperations } from './operations/events.ts';
import { mailboxesOperations } from './operations/mailboxes.ts';
import { playbacksOperations } from './operations/playbacks.ts';
import { recordingsOperations } from './operations/recordings.ts';
import { soundsOperations } from './operations/sounds.ts';
import { models as modelTable } from './models.ts';

export type * from './spec.ts';
/** Every model of the interface (resources, replies, events), 1.10.0 and later ones. */
export const models: readonly ModelSpec[] = modelTable;

/** The interface version this description covers in full. */
export const INTERFACE_VERSION = '1.10.0';

/** Resource names in the order the server lists them in its resource listing. */
export const RESOURCE_NAMES: readonly ResourceName[] = [
  'asterisk',
  'endpoints',
  'channels',
  'bridges',
  'recordings',
  'sounds',
  'playbacks',
  'deviceStates',
  'mailboxes',
  'events',
  'applications',
];

/** What each resource is about, in the resource listing. */
export const RESOURCE_SUMMARIES: Readonly<Record<ResourceName, string>> = {
  asterisk: 'Server-level facilities: info, ping, modules, logging, global variables, dynamic configuration',
  endpoints: 'Endpoints and out-of-call text messages',
  channels: 'Channels (call legs) and what can be done to them',
  bridges: 'Bridges that mix channels',
  recordings: 'Live and stored recordings',
  sounds: 'Installed sounds',
  playbacks: 'Media playbacks in progress',
  deviceStates: 'Device states controlled through the interface',
  mailboxes: 'Externally controlled mailboxes',
  events: 'The event stream and user events',
  applications: 'Applications and their subscriptions',
};

/** Every operation, grouped by resource. */
export const operationsByResource = {
  asterisk: asteriskOperations,
  endpoints: endpointsOperations,
  channels: channelsOperations,
  bridges: bridgesOperations,
  recordings: recordingsOperations,
  sounds: soundsOperations,
  playbacks: playbacksOperations,
  deviceStates: deviceStatesOperations,
  mailboxes: mailboxesOperations,
  events: eventsOperations,
  applications: applicationsOperations,
} as const satisfies Record<ResourceName, readonly OperationSpec[]>;

/** Every operation of the interface, 1.10.0 and later ones (marked with `since`). */
export const operations: readonly OperationSpec[] = RESOURCE_NAMES.flatMap(
  (r): readonly OperationSpec[] => operationsByResource[r],
);

const operationIndex = new Map(operations.map((op) => [operationKey(op.resource, op.name), op]));
const modelIndex = new Map<string, ModelSpec>(models.map((m) => [m.id, m]));

/** `channels.originate`: the stable key of an operation. */
export function operationKey(resource: ResourceName, name: string): string {
  return `${resource}.${name}`;
}

/** Looks up an operation by resource and nickname. */
export function findOperation(resource: ResourceName, name: string): OperationSpec | undefined {
  return operationIndex.get(operationKey(resource, name));
}

/** Looks up a model (resource, reply or event) by id. */
export function findModel(id: string): ModelSpec | undefined {
  return modelIndex.get(id);
}

/** Names of every event type (the concrete subtypes of `Event`), in declaration order. */
export const eventTypeNames: readonly string[] = findModel('Event')?.subTypes ?? [];

/** True when a path template has a `{param}` segment at the given position. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

export type { HttpMethod };
