import type { RestResources } from '@ringflow/client';

type Resources = Omit<RestResources, 'core'>;
type ResourceKey = keyof Resources;

/**
 * Every operation of the interface as `'resource.name'` (`'channels.answer'`,
 * `'bridges.addChannel'`), derived from the typed client, so the list can never drift from it.
 */
export type OperationId = {
  [R in ResourceKey]: `${R}.${Extract<keyof Resources[R], string>}`;
}[ResourceKey];

type MethodOf<Op extends OperationId> = Op extends `${infer R extends ResourceKey}.${infer N}`
  ? N extends keyof Resources[R]
    ? Resources[R][N]
    : never
  : never;

/** The parameters of an operation: `ParamsOf<'channels.play'>` is `ChannelsPlayParams`. */
export type ParamsOf<Op extends OperationId> =
  MethodOf<Op> extends (params: infer P, ...rest: never[]) => unknown ? NonNullable<P> : never;

/** What an operation resolves to: `ResultOf<'channels.play'>` is `Playback`. */
export type ResultOf<Op extends OperationId> =
  MethodOf<Op> extends (...args: never[]) => Promise<infer R> ? R : never;
