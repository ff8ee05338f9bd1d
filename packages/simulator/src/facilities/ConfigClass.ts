/**
 * The shapes behind dynamic configuration (`/asterisk/config/dynamic/{class}/{type}/{id}`): a class
 * (the module's configuration), its object types, their fields and the store objects live in.
 */

/** One field of an object type. */
export interface ConfigField {
  readonly name: string;
  /** The text a new object starts with. */
  readonly default: string;
  /** The stored text for a submitted value, or undefined when the value is refused. */
  readonly parse: (value: string) => string | undefined;
  /** Accepted but never shown in an object's tuples (like the server's no-op `type` field). */
  readonly hidden?: boolean;
}

/**
 * Where objects of one type live. A configuration file refuses create, update and delete
 * (`false`); a database accepts them.
 */
export interface ConfigStore {
  retrieve(id: string): Readonly<Record<string, string>> | undefined;
  create(id: string, values: Readonly<Record<string, string>>): boolean;
  update(id: string, values: Readonly<Record<string, string>>): boolean;
  delete(id: string): boolean;
}

/** An object type of a class, e.g. `user` of `res_ari`. */
export interface ConfigObjectType {
  readonly name: string;
  /** In the order the server lists them. */
  readonly fields: readonly ConfigField[];
  /** Whole-object check after the fields were applied (the server's apply handler). */
  readonly check?: (values: Readonly<Record<string, string>>) => boolean;
  readonly store: ConfigStore;
}

/** A configuration class: the module that owns it and its object types. */
export interface ConfigClass {
  /** As in the path: `res_ari`, `res_mwi_external`. */
  readonly name: string;
  /** The module registering the class; the class exists only while that module runs. */
  readonly module?: string;
  readonly types: readonly ConfigObjectType[];
}
