import { eventTypeNames, findModel } from '../description/index.ts';
import type { StreamEvent } from './StreamEvent.ts';

/** The kinds of server resources an event can be about. */
export type ResourceKind = 'channel' | 'bridge' | 'playback' | 'recording' | 'endpoint' | 'deviceState';

/**
 * One resource an event refers to. `via` is the field path it was found at (`peer`,
 * `playback.target_uri`, `refer_to.destination_channel`), so a router can tell a Dial's caller
 * from its peer.
 */
export interface ResourceRef {
  readonly kind: ResourceKind;
  /** Channel, bridge and playback id; recording and device name; endpoint `technology/resource`. */
  readonly id: string;
  readonly via: string;
}

type JsonObject = Readonly<Record<string, unknown>>;

/**
 * The models that are server resources and how each one names itself. Everything else (which
 * event carries which resource, at which path) is read from the interface description.
 */
const resourceModels: Readonly<Record<string, { kind: ResourceKind; idOf(value: JsonObject): unknown }>> = {
  Channel: { kind: 'channel', idOf: (v) => v.id },
  Bridge: { kind: 'bridge', idOf: (v) => v.id },
  Playback: { kind: 'playback', idOf: (v) => v.id },
  LiveRecording: { kind: 'recording', idOf: (v) => v.name },
  DeviceState: { kind: 'deviceState', idOf: (v) => v.name },
  Endpoint: {
    kind: 'endpoint',
    idOf: (v) =>
      typeof v.technology === 'string' && typeof v.resource === 'string'
        ? `${v.technology}/${v.resource}`
        : undefined,
  },
};

/** `target_uri` prefixes (`channel:abc`, `bridge:xyz`) and the kind they name. */
const targetUriKinds: Readonly<Record<string, ResourceKind>> = {
  channel: 'channel',
  bridge: 'bridge',
  endpoint: 'endpoint',
  deviceState: 'deviceState',
};

/** A place in an event where a resource may sit. */
type Step =
  | {
      readonly at: readonly string[];
      readonly via: string;
      readonly resource: string;
      readonly list: boolean;
    }
  | { readonly at: readonly string[]; readonly via: string; readonly targetUri: true };

/** `List[Channel]` -> `{ model: 'Channel', list: true }`. */
function parseType(type: string): { model: string; list: boolean } {
  const list = /^List\[(.+)\]$/.exec(type);
  return list ? { model: list[1]!, list: true } : { model: type, list: false };
}

/**
 * Walks a model of the description and lists where resources sit in it: properties typed with a
 * resource model, `target_uri` properties of those models, and the same inside nested models
 * (`ChannelTransfer.refer_to.destination_channel`).
 */
function stepsOfModel(modelId: string, prefix: readonly string[], visiting: Set<string>): Step[] {
  const model = findModel(modelId);
  if (!model || visiting.has(modelId)) return [];
  visiting.add(modelId);
  const steps: Step[] = [];
  for (const [name, property] of Object.entries(model.properties)) {
    const at = [...prefix, name];
    const { model: type, list } = parseType(property.type);
    if (type in resourceModels) {
      steps.push({ at, via: at.join('.'), resource: type, list });
      if (!list && findModel(type)?.properties.target_uri)
        steps.push({ at: [...at, 'target_uri'], via: [...at, 'target_uri'].join('.'), targetUri: true });
    } else if (findModel(type)) {
      steps.push(...stepsOfModel(type, at, visiting));
    }
  }
  visiting.delete(modelId);
  return steps;
}

/**
 * For event types the description does not know: the top-level field names that hold the same
 * resource model in every known event (`channel`, `bridge`, `playback`, `device_state`, ...).
 * A name with two meanings (`caller` is a Channel in Dial and a string in CallBroadcast) is left out.
 */
function stepsForUnknownTypes(): Step[] {
  const meaning = new Map<string, string | null>();
  for (const typeName of eventTypeNames) {
    for (const [name, property] of Object.entries(findModel(typeName)?.properties ?? {})) {
      const { model } = parseType(property.type);
      const resource = model in resourceModels ? model : null;
      const seen = meaning.get(name);
      meaning.set(name, seen === undefined || seen === resource ? resource : null);
    }
  }
  const steps: Step[] = [];
  for (const [name, resource] of meaning) {
    if (!resource) continue;
    steps.push({ at: [name], via: name, resource, list: false });
    if (findModel(resource)?.properties.target_uri)
      steps.push({ at: [name, 'target_uri'], via: `${name}.target_uri`, targetUri: true });
  }
  return steps;
}

const stepsByType = new Map<string, readonly Step[]>();
let unknownTypeSteps: readonly Step[] | undefined;
/** The last event worked out and its answer (see {@link eventResources}). */
let lastEvent: StreamEvent | undefined;
let lastRefs: readonly ResourceRef[] = [];

/** The steps of one event type, computed once and cached. */
function stepsFor(type: string): readonly Step[] {
  let steps = stepsByType.get(type);
  if (!steps) {
    if (findModel(type) && eventTypeNames.includes(type)) steps = stepsOfModel(type, [], new Set());
    else {
      unknownTypeSteps ??= stepsForUnknownTypes();
      steps = unknownTypeSteps;
    }
    stepsByType.set(type, steps);
  }
  return steps;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(event: unknown, path: readonly string[]): unknown {
  let value = event;
  for (let i = 0; i < path.length; i++) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as JsonObject)[path[i]!];
  }
  return value;
}

/**
 * Splits a playback or recording target (`channel:abc`, `bridge:xyz`) into kind and id.
 *
 * @example
 * parseTargetUri('bridge:conf-1'); // { kind: 'bridge', id: 'conf-1' }
 * parseTargetUri('nonsense');      // undefined
 */
export function parseTargetUri(uri: string): { kind: ResourceKind; id: string } | undefined {
  const colon = uri.indexOf(':');
  if (colon <= 0 || colon === uri.length - 1) return undefined;
  const kind = targetUriKinds[uri.slice(0, colon)];
  return kind ? { kind, id: uri.slice(colon + 1) } : undefined;
}

/** Adds a resource unless it is already listed (events name a handful: a scan beats a Set). */
function addRef(refs: ResourceRef[], kind: ResourceKind, id: string, via: string): void {
  for (const ref of refs) if (ref.kind === kind && ref.id === id) return;
  refs.push({ kind, id, via });
}

/**
 * Calls `visit(scan, kind, id, via)` for each resource the event refers to, in the order of the
 * event model's fields, and builds nothing: a resource named at two places is visited twice. For
 * code on every event's path that only looks ids up (routing: most events are about nobody the
 * application follows, and are dropped right after); `scan` is handed to `visit` as is, so a
 * caller passes its state and a function made once instead of a closure per event. Which fields
 * are read is the same as for {@link eventResources}.
 *
 * @example
 * const ids: string[] = [];
 * visitEventResources(event, ids, (list, kind, id) => { if (kind === 'channel') list.push(id); });
 */
export function visitEventResources<S>(
  event: StreamEvent,
  scan: S,
  visit: (scan: S, kind: ResourceKind, id: string, via: string) => void,
): void {
  const steps = stepsFor(event.type);
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s]!;
    const value = valueAt(event, step.at);
    if ('targetUri' in step) {
      const target = typeof value === 'string' ? parseTargetUri(value) : undefined;
      if (target) visit(scan, target.kind, target.id, step.via);
      continue;
    }
    const resource = resourceModels[step.resource]!;
    if (!step.list) {
      if (isObject(value)) {
        const id = resource.idOf(value);
        if (typeof id === 'string' && id !== '') visit(scan, resource.kind, id, step.via);
      }
      continue;
    }
    if (Array.isArray(value))
      for (const item of value) {
        if (!isObject(item)) continue;
        const id = resource.idOf(item);
        if (typeof id === 'string' && id !== '') visit(scan, resource.kind, id, step.via);
      }
  }
}

/**
 * Lists the resources an event refers to, each once (first place found wins), in the order of
 * the event model's fields. Which fields to read comes from the interface description and is
 * computed once per event type, and the answer for the last event object asked about is kept
 * (do not mutate events after reading them); unknown event types are read through the field
 * names that mean one resource in every known event. Missing or malformed fields are skipped, never thrown on.
 *
 * @example
 * eventResources(dialEvent);
 * // [{ kind: 'channel', id: 'in-1', via: 'caller' }, { kind: 'channel', id: 'out-1', via: 'peer' }]
 * eventResources(playbackStarted);
 * // [{ kind: 'playback', id: 'pb-1', via: 'playback' },
 * //  { kind: 'channel', id: 'in-1', via: 'playback.target_uri' }]
 */
export function eventResources(event: StreamEvent): readonly ResourceRef[] {
  // One event is usually looked at several times in a row (the filters of the calls it reaches):
  // the last answer is kept. (A WeakMap of every event was a visible cost.)
  if (event === lastEvent) return lastRefs;
  const refs: ResourceRef[] = [];
  visitEventResources(event, refs, addRef);
  Object.freeze(refs);
  lastEvent = event;
  lastRefs = refs;
  return refs;
}

/**
 * True when the event refers to the given resource (see {@link eventResources}).
 *
 * @example
 * refersTo(event, 'bridge', 'conf-1');
 */
export function refersTo(event: StreamEvent, kind: ResourceKind, id: string): boolean {
  return eventResources(event).some((ref) => ref.kind === kind && ref.id === id);
}
