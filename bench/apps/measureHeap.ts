import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, then the heap in use, in bytes. Uses `global.gc` when the process
 * runs with `--expose-gc`; otherwise turns the flag on for this isolate and takes `gc` from a
 * fresh context (V8 installs it there once the flag is set). Heap figures are per isolate, so
 * other test files running in other workers do not disturb them.
 *
 * @example
 * const before = measureHeap();
 * // ... work that should leave nothing behind ...
 * console.info(`retained: ${measureHeap() - before} bytes`);
 */
export function measureHeap(): number {
  const collect = fullGc();
  // Twice: objects freed by the first pass (weak callbacks, finalizers) are released by the second.
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/**
 * A young-generation collection (a scavenge) now: what was allocated since the last one and is
 * no longer reachable is freed, as a scavenge would free it. Used before reading a profile of the
 * objects that outlived scavenges, so the garbage of the last moments does not count as kept.
 */
export function scavenge(): void {
  fullGc()({ type: 'minor' });
}

type GcFunction = (options?: { type: 'minor' | 'major' }) => void;
let gc: GcFunction | undefined;

function fullGc(): GcFunction {
  if (gc) return gc;
  const exposed = (globalThis as { gc?: GcFunction }).gc;
  if (typeof exposed === 'function') gc = exposed;
  else {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as GcFunction;
  }
  return gc;
}
