/**
 * How the simulator knows one module: what `GET /asterisk/modules` shows about it and which of
 * load, unload and reload it accepts.
 *
 * @example
 * const spec: ModuleSpec = {
 *   name: 'res_musiconhold.so', description: 'Music On Hold Resource',
 *   useCount: 0, supportLevel: 'core', reloadable: true,
 * };
 */
export interface ModuleSpec {
  /**
   * The name as listed: `app_userevent.so` for a loadable module, `logger` (no `.so`) for a part of
   * the core, which is always running and can never be unloaded.
   */
  readonly name: string;
  readonly description: string;
  /** Users holding the module. A module in use refuses a (soft) unload, as the real server does. */
  readonly useCount: number;
  readonly supportLevel: 'core' | 'extended' | 'deprecated' | 'unknown';
  /** Whether the module implements reload (`PUT /asterisk/modules/{name}`). */
  readonly reloadable: boolean;
  /** Running at start-up (default true). A module that declined at start-up is listed as `Not Running`. */
  readonly running?: boolean;
  /** Whether loading it succeeds (default true). False models a module whose load declines. */
  readonly loadable?: boolean;
}
