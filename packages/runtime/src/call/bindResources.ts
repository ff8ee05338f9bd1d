import {
  type OperationSpec,
  operationsByResource,
  RESOURCE_NAMES,
  type RestResources,
} from '@ringflow/client';
import type { CallRequestOptions } from './CallHandle.ts';
import type { SendOperation } from './bindHandle.ts';

/** Where a bound resource keeps its session's `send`: off its visible keys. */
const SEND = Symbol('ringflow.send');

interface Bound {
  readonly [SEND]: SendOperation;
}

type Method = (
  this: Bound,
  params?: Readonly<Record<string, unknown>>,
  options?: CallRequestOptions,
) => Promise<unknown>;

/**
 * One frozen prototype per resource, built once from the description: every call's resource
 * objects share its methods (a closure per operation per call would be ~100 per call).
 */
const resourcePrototypes = new Map<string, object>();

function resourcePrototype(resource: (typeof RESOURCE_NAMES)[number]): object {
  let prototype = resourcePrototypes.get(resource);
  if (prototype) return prototype;
  const methods: Record<string, Method> = {};
  const ops: readonly OperationSpec[] = operationsByResource[resource];
  for (const op of ops) {
    if (op.upgrade) continue; // the WebSocket upgrade belongs to the event stream
    const key = `${resource}.${op.name}`;
    methods[op.name] = function (this: Bound, params, options) {
      return this[SEND](key, params ?? {}, options);
    };
  }
  prototype = Object.freeze(methods);
  resourcePrototypes.set(resource, prototype);
  return prototype;
}

/** The prototype of a call's `api`: a getter per resource that binds it on first use. */
const apiPrototype: object = (() => {
  const getters: PropertyDescriptorMap = {};
  for (const resource of RESOURCE_NAMES) {
    const get = function (this: Bound): object {
      const bound = Object.create(resourcePrototype(resource), { [SEND]: { value: this[SEND] } });
      // Cached on the instance: later reads do not bind again.
      Object.defineProperty(this, resource, { value: bound, enumerable: true });
      return bound;
    };
    getters[resource] = { get, enumerable: true };
  }
  getters.core = {
    get(this: RestResources) {
      return this.asterisk;
    },
  };
  return Object.freeze(Object.create(null, getters));
})();

/**
 * The REST client's resource APIs (`api.channels.play(...)`, `api.bridges.addChannel(...)`)
 * with every request going through `send`: a call session's, so the requests of code written
 * against the client's shape (a compiled flow) are tracked like `call.request`'s (counted,
 * cancelled at the end when sent with a signal, a 404 on the call's channel is `call.gone`).
 * Resources are bound on first use and share their methods across calls.
 *
 * @example
 * const api = bindResources(session.send);
 * await api.channels.answer({ channelId: 'c1' }); // send('channels.answer', { channelId: 'c1' })
 */
export function bindResources(send: SendOperation): RestResources {
  return Object.create(apiPrototype, { [SEND]: { value: send } }) as RestResources;
}
