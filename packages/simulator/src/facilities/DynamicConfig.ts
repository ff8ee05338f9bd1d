import type { ConfigTuple } from '@ringflow/client';
import { SimError } from '../SimError.ts';
import { type AriGeneralSettings, type AriUserConfig, ariConfigClass } from './ariConfigClass.ts';
import type { ConfigClass, ConfigObjectType } from './ConfigClass.ts';
import { geolocationConfigClass } from './geolocationConfigClass.ts';
import type { Mailboxes } from './Mailboxes.ts';
import type { ModuleRegistry } from './ModuleRegistry.ts';
import { mwiConfigClass } from './mwiConfigClass.ts';

export interface DynamicConfigOptions {
  /** The interface users the simulator accepts: the `res_ari/user` objects. */
  readonly users?: readonly AriUserConfig[];
  /** Overrides of the `res_ari/general/general` settings. */
  readonly ariGeneral?: AriGeneralSettings;
  /** Backs `res_mwi_external/mailboxes`; without it that class does not exist. */
  readonly mailboxes?: Mailboxes;
  /** When given, a class exists only while its module runs. */
  readonly modules?: ModuleRegistry;
  /** Configuration-file `res_geolocation/location` objects (none by default). */
  readonly locations?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** More classes, after the standard ones. */
  readonly classes?: readonly ConfigClass[];
}

/**
 * Dynamic configuration (`/asterisk/config/dynamic/{configClass}/{objectType}/{id}`) with the real
 * server's rules and messages: objects are lists of `{attribute, value}` tuples, a PUT creates or
 * updates, and what a backing store cannot do answers 403 (configuration files cannot be written;
 * the astdb-backed MWI mailboxes can).
 *
 * Traced quirks kept: a PUT on an existing object needs a `fields` key (400 otherwise) but a
 * `fields` that is not a list counts as an empty list and succeeds; field values are validated
 * before the store is asked, so an invalid create is 400 even where creating is forbidden.
 *
 * @example
 * const config = new DynamicConfig({ users: [{ name: 'demo', password: 'demo' }], mailboxes, modules });
 * config.update('res_mwi_external', 'mailboxes', '1000', { fields: [{ attribute: 'msgs_new', value: '3' }] });
 * // -> [{ attribute: 'msgs_new', value: '3' }, { attribute: 'msgs_old', value: '0' }]
 */
export class DynamicConfig {
  readonly #classes: readonly ConfigClass[];
  readonly #modules: ModuleRegistry | undefined;

  constructor(options: DynamicConfigOptions = {}) {
    this.#modules = options.modules;
    this.#classes = [
      ariConfigClass({ users: options.users ?? [], general: options.ariGeneral ?? {} }),
      ...(options.mailboxes ? [mwiConfigClass(options.mailboxes)] : []),
      geolocationConfigClass({ locations: options.locations ?? {} }),
      ...(options.classes ?? []),
    ];
  }

  /** An object's tuples: 404 for an unknown class, type or id. */
  get(configClass: string, objectType: string, id: string): ConfigTuple[] {
    const type = this.#type(configClass, objectType);
    const values = type.store.retrieve(id);
    if (!values) throw new SimError(404, `Object with id '${id}' not found`);
    return tuples(type, values);
  }

  /**
   * Creates or updates an object from the request body (`{"fields": [{attribute, value}...]}`)
   * and returns its tuples.
   */
  update(configClass: string, objectType: string, id: string, body: unknown): ConfigTuple[] {
    const type = this.#type(configClass, objectType);
    const existing = type.store.retrieve(id);
    const created = existing === undefined;
    const fields = isObject(body) ? body.fields : undefined;
    if (fields === undefined && !created) {
      throw new SimError(400, `Fields must be provided to update object '${id}'`);
    }
    const values: Record<string, string> = existing
      ? { ...existing }
      : Object.fromEntries(type.fields.map((f) => [f.name, f.default]));
    const applied = applyFields(type, values, Array.isArray(fields) ? fields : []);
    if (!applied || (type.check && !type.check(values))) {
      throw new SimError(
        400,
        `${created ? 'Creation' : 'Update'} of object '${id}' failed field value validation`,
      );
    }
    const stored = created ? type.store.create(id, values) : type.store.update(id, values);
    if (!stored) {
      throw new SimError(
        403,
        `Cannot ${created ? 'create' : 'update'} sorcery objects of type '${objectType}'`,
      );
    }
    return tuples(type, type.store.retrieve(id) ?? values);
  }

  /** Deletes an object from its store: 404 when missing, 403 when the store cannot delete. */
  delete(configClass: string, objectType: string, id: string): void {
    const type = this.#type(configClass, objectType);
    if (!type.store.retrieve(id)) throw new SimError(404, `Object with id '${id}' not found`);
    if (!type.store.delete(id)) throw new SimError(403, `Could not delete object with id '${id}'`);
  }

  #type(configClass: string, objectType: string): ConfigObjectType {
    const found = this.#classes.find(
      (c) => c.name === configClass && (!c.module || !this.#modules || this.#modules.isLoaded(c.module)),
    );
    if (!found) throw new SimError(404, `configClass '${configClass}' not found`);
    const type = found.types.find((t) => t.name === objectType);
    if (!type) throw new SimError(404, `objectType '${objectType}' not found`);
    return type;
  }
}

/**
 * Applies submitted tuples in order onto `values`; false when one names an unknown field, has a
 * refused value, or is not an `{attribute, value}` pair of strings (the server cannot read those).
 */
function applyFields(
  type: ConfigObjectType,
  values: Record<string, string>,
  items: readonly unknown[],
): boolean {
  for (const item of items) {
    if (!isObject(item) || typeof item.attribute !== 'string' || typeof item.value !== 'string') return false;
    const field = type.fields.find((f) => f.name === item.attribute);
    const parsed = field?.parse(item.value);
    if (!field || parsed === undefined) return false;
    values[field.name] = parsed;
  }
  return true;
}

function tuples(type: ConfigObjectType, values: Readonly<Record<string, string>>): ConfigTuple[] {
  return type.fields
    .filter((f) => !f.hidden)
    .map((f) => ({ attribute: f.name, value: values[f.name] ?? f.default }));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
