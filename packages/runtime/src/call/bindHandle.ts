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
 * The operation names of each handle, worked out once: every call binds a channel handle, and
 * scanning the ~40 channel paths with a regular expression per call showed in profiles.
 */
const operationNames = new Map<HandleName, readonly string[]>();

function operationsOf(name: HandleName): readonly string[] {
  let names = operationNames.get(name);
  if (!names) {
    const spec = handleSpecs[name];
    names = operationsByResource[spec.resource]
      .filter((op) => {
        const params = pathParamNames(op.path);
        return spec.bind.every((b) => params.includes(b));
      })
      .map((op) => op.name);
    operationNames.set(name, names);
  }
  return names;
}

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
  const { resource } = handleSpecs[name];
  const handle: Record<string, unknown> = { ...bound };
  for (const op of operationsOf(name)) {
    handle[op] = (given?: Readonly<Record<string, unknown>>, options?: CallRequestOptions) =>
      send(`${resource}.${op}`, { ...given, ...bound }, options);
  }
  return handle as HandleOf<N>;
}
