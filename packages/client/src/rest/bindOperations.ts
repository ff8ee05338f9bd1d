import { handleSpecs } from '../description/handles.ts';
import type { HandleName } from '../description/handles.ts';
import { operationsByResource, pathParamNames } from '../description/index.ts';
import type { OperationSpec, ResourceName } from '../description/spec.ts';
import type { RequestOptions } from './requestOptions.ts';

/** Sends one operation: the single generic entry point every bound method goes through. */
export type OperationCaller = (
  op: OperationSpec,
  params: Readonly<Record<string, unknown>> | undefined,
  options: RequestOptions | undefined,
) => Promise<unknown>;

type BoundMethod = (params?: Record<string, unknown>, options?: RequestOptions) => Promise<unknown>;

/** REST operations; the WebSocket upgrade (`events.eventWebsocket`) belongs to the event stream. */
function restOperations(resource: ResourceName): readonly OperationSpec[] {
  const ops: readonly OperationSpec[] = operationsByResource[resource];
  return ops.filter((op) => !op.upgrade);
}

/**
 * Builds the method table of one resource from the description: `api.originate(params, options)`
 * calls `call(channels.originate, params, options)`.
 *
 * @example
 * const channels = bindResource('channels', call) as ChannelsApi;
 * await channels.list();
 */
export function bindResource(
  resource: ResourceName,
  call: OperationCaller,
): Readonly<Record<string, BoundMethod>> {
  const api: Record<string, BoundMethod> = {};
  for (const op of restOperations(resource)) api[op.name] = (params, options) => call(op, params, options);
  return Object.freeze(api);
}

/**
 * Builds the factory of one handle kind (`client.channel(id)`): a handle holds its bound ids as
 * properties and offers every operation of its resource whose path contains all of them, with the
 * ids filled in. Methods live on one shared prototype, so creating a handle per event is cheap.
 *
 * @example
 * const channel = bindHandle('channel', call);
 * await (channel('c1') as ChannelHandle).answer(); // channels.answer { channelId: 'c1' }
 */
export function bindHandle(name: HandleName, call: OperationCaller): (...ids: string[]) => object {
  const spec = handleSpecs[name];
  const bind: readonly string[] = spec.bind;
  const prototype: Record<
    string,
    (this: Record<string, string>, ...args: Parameters<BoundMethod>) => Promise<unknown>
  > = {};
  for (const op of restOperations(spec.resource)) {
    const names = pathParamNames(op.path);
    if (!bind.every((b) => names.includes(b))) continue;
    prototype[op.name] = function (this: Record<string, string>, params, options) {
      const bound: Record<string, unknown> = { ...params };
      // The handle's ids win over anything of the same name in params: they are what it is bound to.
      for (const b of bind) bound[b] = this[b];
      return call(op, bound, options);
    };
  }
  Object.freeze(prototype);
  return (...ids: string[]) => {
    const handle: Record<string, string> = Object.create(prototype);
    bind.forEach((b, i) => {
      handle[b] = ids[i] as string;
    });
    return Object.freeze(handle);
  };
}
