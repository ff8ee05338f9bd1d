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

/**
 * Builds a handle (`channel`, `bridge`, `playback`, ...) whose operations go through `send`,
 * from the interface description: every operation of the resource whose path holds all the bound
 * parameters is a method, exactly as on the client's own handles.
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
  const spec = handleSpecs[name];
  const handle: Record<string, unknown> = { ...bound };
  for (const op of operationsByResource[spec.resource]) {
    const params = pathParamNames(op.path);
    if (!spec.bind.every((b) => params.includes(b))) continue;
    handle[op.name] = (given?: Readonly<Record<string, unknown>>, options?: CallRequestOptions) =>
      send(`${spec.resource}.${op.name}`, { ...given, ...bound }, options);
  }
  return handle as HandleOf<N>;
}
