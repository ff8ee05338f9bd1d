/**
 * The shape of ringflow's description of the ARI interface.
 *
 * The description is plain data: the typed client, the simulator's router and validator, the
 * Swagger documents and the generated TypeScript types are all derived from it, so a fact about
 * the interface is written exactly once.
 */

/** Names of the REST resources. `asterisk` is the server-level resource (`core` in the specification). */
export type ResourceName =
  | 'asterisk'
  | 'endpoints'
  | 'channels'
  | 'bridges'
  | 'recordings'
  | 'sounds'
  | 'playbacks'
  | 'deviceStates'
  | 'mailboxes'
  | 'events'
  | 'applications';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Where a parameter travels: in the path, in the query string, or as a key of the JSON body. */
export type ParamLocation = 'path' | 'query' | 'body';

/**
 * Swagger 1.2 data types used by the interface. `containers` is a JSON object of name/value pairs
 * (`variables`, `fields`); `object` is an arbitrary JSON value.
 */
export type ParamType = 'string' | 'int' | 'long' | 'double' | 'boolean' | 'object' | 'containers';

/**
 * Interface version markers. Items without `since` exist in 1.10.0, the version the specification
 * describes. `'>1.10.0'` marks what current servers (interface 2.0.0) have and 1.10.0 lacks; the
 * exact release that introduced it is not recorded in our sources.
 */
export type Since = '>1.10.0';

export interface ParamSpec {
  readonly name: string;
  readonly in: ParamLocation;
  readonly type: ParamType;
  readonly required?: boolean;
  /** Several values may be given: a comma separated list in the query (`channel=a,b`). */
  readonly allowMultiple?: boolean;
  readonly enum?: readonly string[];
  /** Enum values that appeared after 1.10.0, by version marker. */
  readonly enumSince?: Readonly<Partial<Record<Since, readonly string[]>>>;
  readonly default?: string | number | boolean;
  readonly since?: Since;
}

export interface OperationSpec {
  readonly resource: ResourceName;
  /** The operation's nickname, unique within its resource (`originate`, `addChannel`). */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path below the interface root, with `{param}` placeholders (`/channels/{channelId}/play`). */
  readonly path: string;
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  /** Swagger type of the reply: a model name, `List[Model]`, `void` or `binary`. */
  readonly returns: string;
  /** HTTP statuses the operation documents besides success. */
  readonly errors: readonly number[];
  readonly since?: Since;
  /** The operation is a WebSocket upgrade (the event stream), not a REST call. */
  readonly upgrade?: 'websocket';
}

export interface ModelPropertySpec {
  /** Swagger type: a primitive (`string`, `int`, `long`, `double`, `boolean`, `Date`, `object`), a model name, or `List[...]`. */
  readonly type: string;
  readonly required?: boolean;
  readonly enum?: readonly string[];
  readonly since?: Since;
}

export interface ModelSpec {
  readonly id: string;
  /** The resource whose Swagger document declares the model. */
  readonly resource: ResourceName;
  readonly description: string;
  readonly properties: Readonly<Record<string, ModelPropertySpec>>;
  /** Models that extend this one (Swagger 1.2 polymorphism: `Message` -> `Event` -> `StasisStart`...). */
  readonly subTypes?: readonly string[];
  /** The property whose value names the concrete subtype (`type`). */
  readonly discriminator?: string;
  readonly since?: Since;
}
