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

let gc: (() => void) | undefined;

function fullGc(): () => void {
  if (gc) return gc;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') gc = exposed;
  else {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  return gc;
}
