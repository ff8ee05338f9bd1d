import type { ConfigStore } from './ConfigClass.ts';

/**
 * Objects read from a configuration file: readable, but the server cannot write them back, so
 * create, update and delete are refused (the interface answers 403).
 *
 * @example
 * const users = new ConfigFileStore({ viewer: { password: 'viewer', read_only: 'yes' } });
 * users.retrieve('viewer'); // { password: 'viewer', read_only: 'yes' }
 * users.update('viewer', {}); // false
 */
export class ConfigFileStore implements ConfigStore {
  readonly #objects: ReadonlyMap<string, Readonly<Record<string, string>>>;

  constructor(objects: Readonly<Record<string, Readonly<Record<string, string>>>> = {}) {
    this.#objects = new Map(Object.entries(objects).map(([id, values]) => [id, { ...values }]));
  }

  retrieve(id: string): Readonly<Record<string, string>> | undefined {
    return this.#objects.get(id);
  }

  create(): boolean {
    return false;
  }

  update(): boolean {
    return false;
  }

  delete(): boolean {
    return false;
  }
}
