import { handleSpecs, operationsByResource, pathParamNames } from '@ringflow/client';
import type { HandleName, RestHandles } from '@ringflow/client';
import type { CallRequestOptions } from './CallHandle.ts';

/** Sends one operation by key; a session's tracked `request`. */
export type SendOperation = (
  operation: string,
  params: Readonly<Record<string, unknown>>,
  options?: CallRequestOptions,
) => Promise<unknown>;

type HandleOf<N extends HandleName> = ReturnType<RestHandles[N]>;

/** Where a handle keeps what its shared methods need: kept off the handle's visible keys. */
const SEND = Symbol('ringflow.send');
const BOUND = Symbol('ringflow.bound');

interface HandleState {
  readonly [SEND]: SendOperation;
  readonly [BOUND]: Readonly<Record<string, string>>;
}

type Method = (
  this: HandleState,
  given?: Readonly<Record<string, unknown>>,
  options?: CallRequestOptions,
) => Promise<unknown>;

/**
 * One prototype per handle kind, built once: its methods are shared by every handle of that kind.
 * Every call binds a channel handle, and ~40 closures per call (one per channel operation) were a
 * visible share of the runtime's memory per call; the regular-expression scan of the paths that
 * picks the operations showed in CPU profiles.
 */
const prototypes = new Map<HandleName, object>();

function prototypeOf(name: HandleName): object {
  let prototype = prototypes.get(name);
  if (prototype) return prototype;
  const spec = handleSpecs[name];
  const methods: Record<string, Method> = {};
  for (const op of operationsByResource[spec.resource]) {
    const params = pathParamNames(op.path);
    if (!spec.bind.every((b) => params.includes(b))) continue;
    const key = `${spec.resource}.${op.name}`;
    methods[op.name] = function (this: HandleState, given, options) {
      // The handle's ids win over anything of the same name in `given`: they are what it is bound to.
      return this[SEND](key, given ? { ...given, ...this[BOUND] } : this[BOUND], options);
    };
  }
  prototype = Object.freeze(methods);
  prototypes.set(name, prototype);
  return prototype;
}

/**
 * Builds a handle (`channel`, `bridge`, `playback`, ...) whose operations go through `send`,
 * from the interface description: every operation of the resource whose path holds all the bound
 * parameters is a method, exactly as on the client's own handles. The methods live on one shared
 * prototype per kind (call them as methods: `handle.answer()`, not detached).
 *
 * @example
 * const channel = bindHandle('channel', { channelId: 'c1' }, session.request);
 * await channel.answer(); // send('channels.answer', { channelId: 'c1' })
 */
export function bindHandle<N extends HandleName>(
  name: N,
  bound: Readonly<Record<string, string>>,
  send: SendOperation,
): HandleOf<N> {
  const handle: Record<string | symbol, unknown> = Object.create(prototypeOf(name));
  for (const key of Object.keys(bound)) handle[key] = bound[key];
  // Not enumerable: a handle spreads and logs as its ids alone, as before.
  Object.defineProperty(handle, SEND, { value: send });
  Object.defineProperty(handle, BOUND, { value: Object.freeze({ ...bound }) });
  return handle as HandleOf<N>;
}
