import type { ModuleRegistry } from '../facilities/index.ts';

/** The self-contained stores behind the server-level resources. */
export interface Facilities {
  readonly modules: ModuleRegistry;
}
