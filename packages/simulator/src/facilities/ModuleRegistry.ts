import type { Module } from '@ringflow/client';
import { SimError } from '../SimError.ts';
import { ChangeListeners } from './ChangeListeners.ts';
import { defaultModules } from './defaultModules.ts';
import type { ModuleSpec } from './ModuleSpec.ts';

/** What happened to a module; `name` is the listed name (`app_userevent.so`, `logger`). */
export interface ModuleChange {
  readonly name: string;
  readonly action: 'loaded' | 'unloaded' | 'reloaded';
}

interface ModuleEntry {
  readonly spec: ModuleSpec;
  running: boolean;
  /** Shown by the listing: running modules and those that declined at start-up, not unloaded ones. */
  listed: boolean;
}

/** Strips `.so` and folds case: how the server matches module names for load checks. */
function matchKey(name: string): string {
  return (name.endsWith('.so') ? name.slice(0, -3) : name).toLowerCase();
}

/**
 * The server's loadable modules and the rules of `/asterisk/modules`, with the real server's
 * statuses and messages.
 *
 * Two name rules come from the real server: its "is it running" check ignores `.so` and case,
 * but fetching one module's record needs the exact listed name. So `GET app_userevent` answers
 * 409 while `GET app_userevent.so` answers 200 (and a core part such as `logger` the other way).
 *
 * @example
 * const modules = new ModuleRegistry();
 * modules.unload('app_userevent');           // 204
 * modules.isLoaded('app_userevent.so');      // false
 * modules.load('app_userevent');             // 204
 * modules.reload('app_userevent');           // SimError 409 'Module does not support reloading'
 */
export class ModuleRegistry {
  readonly #entries: ModuleEntry[];
  readonly #changes = new ChangeListeners<ModuleChange>();

  constructor(options: { readonly modules?: readonly ModuleSpec[] } = {}) {
    const specs = options.modules ?? defaultModules;
    const seen = new Set<string>();
    this.#entries = specs.map((spec) => {
      const key = matchKey(spec.name);
      if (seen.has(key)) {
        throw new Error(`ModuleRegistry: module '${spec.name}' is listed twice; give each module once`);
      }
      seen.add(key);
      const running = spec.running ?? true;
      return { spec, running, listed: true };
    });
  }

  /** Every listed module, in listing order (as `GET /asterisk/modules`). */
  list(): Module[] {
    return this.#entries.filter((e) => e.listed).map(toModule);
  }

  /**
   * One module (`GET /asterisk/modules/{name}`): 404 when not running, 409 when the name is not
   * exactly the listed one (`app_userevent` instead of `app_userevent.so`).
   */
  get(name: string): Module {
    if (!this.#running(name)) {
      throw new SimError(404, 'Module could not be found in running modules');
    }
    const entry = this.#entries.find((e) => e.running && e.spec.name === name);
    if (!entry) throw new SimError(409, 'Module information could not be retrieved');
    return toModule(entry);
  }

  /** Loads a module (`POST`). The file name must match exactly, with or without `.so`. */
  load(name: string): void {
    if (this.#running(name)) throw new SimError(409, 'Module is already loaded');
    const entry = this.#entries.find(
      (e) => e.spec.name.endsWith('.so') && (e.spec.name === name || e.spec.name === `${name}.so`),
    );
    if (!entry || entry.spec.loadable === false) throw new SimError(409, 'Module load declined');
    entry.running = true;
    entry.listed = true;
    this.#changes.emit({ name: entry.spec.name, action: 'loaded' });
  }

  /**
   * Unloads a module (`DELETE`). Like the interface's soft unload, a module in use (use count
   * above 0) or a part of the core refuses with 409.
   */
  unload(name: string): void {
    const entry = this.#running(name);
    if (!entry) throw new SimError(404, 'Module not found in running modules');
    if (isBuiltIn(entry.spec) || entry.spec.useCount > 0) {
      throw new SimError(409, 'Module could not be unloaded');
    }
    entry.running = false;
    entry.listed = false;
    this.#changes.emit({ name: entry.spec.name, action: 'unloaded' });
  }

  /** Reloads a module (`PUT`): 404 when not running, 409 when it has no reload. */
  reload(name: string): void {
    const entry = this.#running(name);
    if (!entry) throw new SimError(404, 'Module not found in running modules');
    if (!entry.spec.reloadable) throw new SimError(409, 'Module does not support reloading');
    this.#changes.emit({ name: entry.spec.name, action: 'reloaded' });
  }

  /**
   * Whether a module is running, ignoring `.so` and case.
   *
   * @example
   * if (!modules.isLoaded('res_mwi_external')) throw new SimError(404, 'Resource not found');
   */
  isLoaded(name: string): boolean {
    return this.#running(name) !== undefined;
  }

  /**
   * Calls `listener` after each load, unload and reload; returns the function that stops it.
   *
   * @example
   * modules.onChange(({ name, action }) => { if (name === 'logger' && action === 'reloaded') reopenLogs(); });
   */
  onChange(listener: (change: ModuleChange) => void): () => void {
    return this.#changes.add(listener);
  }

  #running(name: string): ModuleEntry | undefined {
    const key = matchKey(name);
    return this.#entries.find((e) => e.running && matchKey(e.spec.name) === key);
  }
}

function isBuiltIn(spec: ModuleSpec): boolean {
  return !spec.name.endsWith('.so');
}

function toModule(entry: ModuleEntry): Module {
  return {
    name: entry.spec.name,
    description: entry.spec.description,
    use_count: entry.spec.useCount,
    status: entry.running ? 'Running' : 'Not Running',
    support_level: entry.spec.supportLevel,
  };
}
