import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, RingflowError } from '@ringflow/client';
import type { Dialplan } from './Dialplan.ts';
import { parseDialplan } from './parseDialplan.ts';

/**
 * Reads and parses an `extensions.conf` file (the simulator's `--dialplan`). `#include`d files
 * are found relative to the directory of the file that includes them.
 * Throws `DialplanSyntaxError` for a dialplan with errors, `RingflowError` (CONFIG) when the
 * file cannot be read.
 *
 * @example const dialplan = loadDialplanFile('./extensions.conf');
 */
export function loadDialplanFile(path: string): Dialplan {
  return parseDialplan(readText(path), path, {
    include: (name, fromFile) => {
      const target = isAbsolute(name) ? name : resolve(dirname(fromFile), name);
      return existsSync(target) ? { text: readText(target), file: target } : undefined;
    },
  });
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new RingflowError(
      ErrorCode.CONFIG,
      `Cannot read the dialplan file "${path}": ${(cause as Error).message}. Check the --dialplan path.`,
      { cause },
    );
  }
}

let defaultDialplan: Dialplan | undefined;

/** Where the default dialplan file lives (next to this module). */
export const defaultDialplanPath = fileURLToPath(new URL('./extensions.conf', import.meta.url));

/**
 * The dialplan the simulator ships with (`extensions.conf` beside this file): demo contexts
 * for ringflow (`from-callers`, `ivr-exits`) and the contexts of the recorded real-server
 * scenarios (`stasis-ivr`, `default`). Parsed once; the result is read-only and shared.
 *
 * @example loadDefaultDialplan().contexts.has('from-callers') // true
 */
export function loadDefaultDialplan(): Dialplan {
  defaultDialplan ??= loadDialplanFile(defaultDialplanPath);
  return defaultDialplan;
}
